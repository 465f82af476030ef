import type { ProcessingResult } from '@sprout/contracts';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  formatNumber,
  toast,
} from '@sprout/ui';
import { WandSparkles } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { api } from '@sprout/contracts';
import { endpointMutation } from '@sprout/ui';
import { useMutation } from '@tanstack/react-query';
import { ExampleMessages } from './ExampleMessages';
import { filledContext, PROCESSING_CONTEXT_DEFAULTS, PROCESSING_EXAMPLES, testerTexts } from './tester-texts';
import { ContextField, MessageField } from './TesterFields';
import { DetailRow, SectionHeading, ValidationDetails } from './ValidationDetails';

type ProcessingContextFields = Record<keyof typeof PROCESSING_CONTEXT_DEFAULTS, string>;

function MessageBlock({ label, testId, children }: { label: string; testId: string; children: string }) {
  return (
    <div className="flex flex-col gap-1">
      <SectionHeading>{label}</SectionHeading>
      <p
        className="rounded-md border border-border bg-muted/50 p-3 text-sm break-words whitespace-pre-wrap"
        data-testid={testId}
      >
        {children}
      </p>
    </div>
  );
}

function ProcessingResults({ result }: { result: ProcessingResult }) {
  const { processing } = result;
  return (
    <div data-testid="processing-result" className="[&>div:first-child>h3]:mt-0">
      <MessageBlock label="Original message" testId="processing-original">
        {processing.originalMessage}
      </MessageBlock>
      <MessageBlock label="Enhanced message" testId="processing-enhanced">
        {processing.processedMessage}
      </MessageBlock>
      <SectionHeading>Applied enhancements</SectionHeading>
      {processing.enhancements.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {processing.skipProcessing
            ? 'None: this message is answered without added context.'
            : 'None: no context was added.'}
        </p>
      ) : (
        <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="processing-enhancements">
          {processing.enhancements.map((enhancement) => (
            <li key={enhancement}>{enhancement}</li>
          ))}
        </ul>
      )}
      <dl className="mt-4">
        <DetailRow label="Length" testId="processing-length">
          {formatNumber(result.messageLength)} characters
        </DetailRow>
        <DetailRow label="Word count" testId="processing-word-count">
          {formatNumber(result.wordCount)}
        </DetailRow>
        <DetailRow label="Skip processing" testId="processing-skip">
          <Badge variant={processing.skipProcessing ? 'secondary' : 'default'}>
            {processing.skipProcessing ? 'Yes' : 'No'}
          </Badge>
        </DetailRow>
      </dl>
      <SectionHeading>Validation results</SectionHeading>
      <ValidationDetails result={result.validation} validatedAt={result.validation.timestamp} />
    </div>
  );
}

/** Input processing tester: how a message is enhanced with the gardener's context before the model reads it. */
export default function InputProcessingPage() {
  const [message, setMessage] = useState('');
  const [context, setContext] = useState<ProcessingContextFields>({ ...PROCESSING_CONTEXT_DEFAULTS });
  const processing = useMutation(
    endpointMutation(api.testers.process, { failureMessage: 'Failed to process message' }),
  );
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const text = message.trim();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text || processing.isPending) return;
    processing.mutate(
      { body: { message: text, userContext: filledContext(context) } },
      {
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: testerTexts.processingErrorTitle,
            description: error.message,
          }),
      },
    );
  }

  function pickExample(example: string) {
    setMessage(example);
    messageRef.current?.focus();
  }

  const setField = (field: keyof ProcessingContextFields) => (value: string) =>
    setContext((current) => ({ ...current, [field]: value }));

  return (
    <>
      <PageHeader
        title="Input Processing"
        description="See how a message is enhanced with the gardener’s context before the model reads it."
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="flex min-w-0 flex-col gap-6">
          <Card>
            <CardHeader>
              <CardTitle asChild>
                <h2>Test a message</h2>
              </CardTitle>
              <CardDescription>Process a message with the sender context below.</CardDescription>
            </CardHeader>
            <CardContent>
              <form onSubmit={onSubmit} className="flex flex-col gap-5" data-testid="processing-form">
                <MessageField
                  ref={messageRef}
                  label="Test message"
                  value={message}
                  onChange={setMessage}
                  placeholder="When should I plant tomatoes?"
                />
                <fieldset className="flex min-w-0 flex-col gap-3">
                  <legend className="mb-3 text-sm font-medium">User context</legend>
                  <div className="grid gap-3 sm:grid-cols-2">
                    <ContextField
                      label="Region or ZIP"
                      value={context.region}
                      onChange={setField('region')}
                    />
                    <ContextField
                      label="Hardiness zone"
                      value={context.hardiness_zone}
                      onChange={setField('hardiness_zone')}
                    />
                    <ContextField
                      label="Soil type"
                      value={context.soil_type}
                      onChange={setField('soil_type')}
                    />
                    <ContextField
                      label="Experience level"
                      value={context.experience_level}
                      onChange={setField('experience_level')}
                    />
                  </div>
                </fieldset>
                <Button type="submit" className="self-start" disabled={!text || processing.isPending}>
                  <WandSparkles aria-hidden="true" />
                  {processing.isPending ? 'Processing...' : 'Process Message'}
                </Button>
              </form>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle asChild>
                <h2>Processing results</h2>
              </CardTitle>
            </CardHeader>
            <CardContent aria-live="polite">
              {processing.isPending ? (
                <p className="text-sm text-muted-foreground">Processing...</p>
              ) : processing.isSuccess ? (
                <ProcessingResults result={processing.data} />
              ) : (
                <p className="text-sm text-muted-foreground">Results appear here after processing.</p>
              )}
            </CardContent>
          </Card>
        </div>

        <ExampleMessages examples={PROCESSING_EXAMPLES} onPick={pickExample} testId="processing-examples" />
      </div>
    </>
  );
}
