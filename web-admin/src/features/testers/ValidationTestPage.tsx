import type { ValidateMessageResponse } from '@sprout/contracts';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, serverMessage } from '@sprout/ui';
import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { api } from '@sprout/contracts';
import { endpointMutation } from '@sprout/ui';
import { useMutation } from '@tanstack/react-query';
import { ExampleMessages } from './ExampleMessages';
import { filledContext, testerTexts, VALIDATION_EXAMPLES } from './tester-texts';
import { ContextField, MessageField } from './TesterFields';
import { ValidationDetails } from './ValidationDetails';

const NO_CONTEXT = { zip_code: '', region: '', hardiness_zone: '' };

function ValidationResults({ response, message }: { response: ValidateMessageResponse; message: string }) {
  return (
    <div className="flex flex-col gap-3" data-testid="validation-result">
      <p className="text-sm break-words text-muted-foreground">
        Tested: <span className="text-foreground">“{message}”</span>
      </p>
      <ValidationDetails result={response.validation} validatedAt={response.timestamp} />
    </div>
  );
}

/** Message validation tester: how Sprout judges an incoming message before it answers. */
export default function ValidationTestPage() {
  const [message, setMessage] = useState('');
  const [context, setContext] = useState(NO_CONTEXT);
  const validation = useMutation(
    endpointMutation(api.testers.validate, { failureMessage: 'Failed to validate message' }),
  );
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const text = message.trim();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text || validation.isPending) return;
    validation.mutate({ body: { message: text, userContext: filledContext(context) } });
  }

  function pickExample(example: string) {
    setMessage(example);
    messageRef.current?.focus();
  }

  const setField = (field: keyof typeof NO_CONTEXT) => (value: string) =>
    setContext((current) => ({ ...current, [field]: value }));

  return (
    <>
      <PageHeader
        title="Message Validation"
        description="Check how Sprout judges an incoming message before it answers."
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="flex min-w-0 flex-col gap-6">
          <Card>
            <CardHeader>
              <CardTitle asChild>
                <h2>Test a message</h2>
              </CardTitle>
              <CardDescription>Validate a message as if a gardener had texted it.</CardDescription>
            </CardHeader>
            <CardContent>
              <form onSubmit={onSubmit} className="flex flex-col gap-5" data-testid="validation-form">
                <MessageField
                  ref={messageRef}
                  label="Message"
                  value={message}
                  onChange={setMessage}
                  placeholder="When should I plant tomatoes?"
                />
                <fieldset className="flex min-w-0 flex-col gap-3">
                  <legend className="mb-3 text-sm font-medium">
                    User context <span className="font-normal text-muted-foreground">(optional)</span>
                  </legend>
                  <div className="grid gap-3 sm:grid-cols-3">
                    <ContextField
                      label="Zip code"
                      value={context.zip_code}
                      onChange={setField('zip_code')}
                      placeholder="97214"
                    />
                    <ContextField
                      label="Region"
                      value={context.region}
                      onChange={setField('region')}
                      placeholder="Pacific Northwest"
                    />
                    <ContextField
                      label="Hardiness zone"
                      value={context.hardiness_zone}
                      onChange={setField('hardiness_zone')}
                      placeholder="8b"
                    />
                  </div>
                </fieldset>
                <Button type="submit" className="self-start" disabled={!text || validation.isPending}>
                  <ShieldCheck aria-hidden="true" />
                  {validation.isPending ? 'Validating...' : 'Validate Message'}
                </Button>
              </form>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle asChild>
                <h2>Validation results</h2>
              </CardTitle>
            </CardHeader>
            <CardContent aria-live="polite">
              {validation.isPending ? (
                <p className="text-sm text-muted-foreground">Validating...</p>
              ) : validation.isError ? (
                <div
                  role="alert"
                  className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm text-destructive"
                  data-testid="validation-error"
                >
                  <p className="font-medium">{testerTexts.validationError(validation.error)}</p>
                  {serverMessage(validation.error, '') && (
                    <p className="mt-1">{serverMessage(validation.error, '')}</p>
                  )}
                </div>
              ) : validation.isSuccess ? (
                <ValidationResults response={validation.data} message={validation.variables.body.message} />
              ) : (
                <p className="text-sm text-muted-foreground">Results appear here after a validation.</p>
              )}
            </CardContent>
          </Card>
        </div>

        <ExampleMessages examples={VALIDATION_EXAMPLES} onPick={pickExample} testId="validation-examples" />
      </div>
    </>
  );
}
