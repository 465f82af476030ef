import { Input, Label, Textarea } from '@sprout/ui';
import { type Ref, useId } from 'react';
import { CONTEXT_MAX_LENGTH, MESSAGE_MAX_LENGTH, messageStats } from './tester-texts';

/** The message textarea of a tester, with its live length and word count. */
export function MessageField({
  label,
  value,
  onChange,
  placeholder,
  ref,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  ref?: Ref<HTMLTextAreaElement>;
}) {
  const id = useId();
  const { length, words } = messageStats(value);
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        ref={ref}
        name="message"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        maxLength={MESSAGE_MAX_LENGTH}
        aria-describedby={`${id}-stats`}
        rows={4}
      />
      <p id={`${id}-stats`} className="text-xs text-muted-foreground" data-testid="message-stats">
        {length} {length === 1 ? 'character' : 'characters'} · {words} {words === 1 ? 'word' : 'words'}
      </p>
    </div>
  );
}

/** A one-line context field of a tester. */
export function ContextField({
  label,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        maxLength={CONTEXT_MAX_LENGTH}
      />
    </div>
  );
}
