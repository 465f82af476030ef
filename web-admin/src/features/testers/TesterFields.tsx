import { Textarea } from '@sprout/ui';
import { FormField, TextField } from '../../components/FormField';
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
    <FormField id={id} label={label} className="flex flex-col gap-2">
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
    </FormField>
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
    <TextField
      id={id}
      label={label}
      fieldClassName="flex min-w-0 flex-col gap-2"
      value={value}
      onValueChange={onChange}
      placeholder={placeholder}
      maxLength={CONTEXT_MAX_LENGTH}
    />
  );
}
