import { Button } from '@sprout/ui';
import type { LucideIcon } from 'lucide-react';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { ExampleMessages } from './ExampleMessages';
import { filledContext, type TesterExample } from './tester-texts';
import { ContextField, MessageField } from './TesterFields';

/** A context field of a tester: which value it edits, its label and its hint. */
interface ContextFieldDef<K extends string> {
  key: K;
  label: string;
  placeholder?: string;
}

/** What a tester's page says and offers; the rest of the page is the same for every tester. */
export interface TesterSpec<K extends string> {
  title: string;
  description: string;
  formDescription: string;
  /** The form is `<prefix>-form`, the examples `<prefix>-examples`. */
  testIdPrefix: string;
  messageLabel: string;
  legend: ReactNode;
  /** The context fields' grid columns from the small breakpoint on. */
  columns: 'sm:grid-cols-2' | 'sm:grid-cols-3';
  fields: readonly ContextFieldDef<K>[];
  initialContext: Record<K, string>;
  submit: { icon: LucideIcon; label: string; pendingLabel: string };
  resultsTitle: string;
  /** The results card before the first test. */
  idleText: string;
  examples: readonly TesterExample[];
}

/** The tester's call: the message and the filled-in context go in the request's body. */
interface TestMutation<K extends string> {
  isPending: boolean;
  mutate: (request: { body: { message: string; userContext: Partial<Record<K, string>> } }) => void;
}

/**
 * A message tester: the message and its context, a results card and clickable examples. A
 * submit sends the trimmed message and the filled-in context, unless a test is running; the
 * results card shows `results` once there are some (null before).
 */
export function TesterPage<K extends string>({
  spec,
  test,
  results,
}: {
  spec: TesterSpec<K>;
  test: TestMutation<K>;
  results: ReactNode;
}) {
  const pending = test.isPending;
  const [message, setMessage] = useState('');
  const [context, setContext] = useState(spec.initialContext);
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const text = message.trim();
  const { icon: SubmitIcon } = spec.submit;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text || pending) return;
    test.mutate({ body: { message: text, userContext: filledContext(context) } });
  }

  function pickExample(example: string) {
    setMessage(example);
    messageRef.current?.focus();
  }

  return (
    <>
      <PageHeader title={spec.title} description={spec.description} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="flex min-w-0 flex-col gap-6">
          <SectionCard title="Test a message" description={spec.formDescription}>
            <form
              onSubmit={onSubmit}
              className="flex flex-col gap-5"
              data-testid={`${spec.testIdPrefix}-form`}
            >
              <MessageField
                ref={messageRef}
                label={spec.messageLabel}
                value={message}
                onChange={setMessage}
                placeholder="When should I plant tomatoes?"
              />
              <fieldset className="flex min-w-0 flex-col gap-3">
                <legend className="mb-3 text-sm font-medium">{spec.legend}</legend>
                <div className={`grid gap-3 ${spec.columns}`}>
                  {spec.fields.map((field) => (
                    <ContextField
                      key={field.key}
                      label={field.label}
                      value={context[field.key]}
                      onChange={(value) => setContext((current) => ({ ...current, [field.key]: value }))}
                      placeholder={field.placeholder}
                    />
                  ))}
                </div>
              </fieldset>
              <Button type="submit" className="self-start" disabled={!text || pending}>
                <SubmitIcon aria-hidden="true" />
                {pending ? spec.submit.pendingLabel : spec.submit.label}
              </Button>
            </form>
          </SectionCard>
          <SectionCard title={spec.resultsTitle} live>
            {pending || results === null ? (
              <p className="text-sm text-muted-foreground">
                {pending ? spec.submit.pendingLabel : spec.idleText}
              </p>
            ) : (
              results
            )}
          </SectionCard>
        </div>
        <ExampleMessages
          examples={spec.examples}
          onPick={pickExample}
          testId={`${spec.testIdPrefix}-examples`}
        />
      </div>
    </>
  );
}
