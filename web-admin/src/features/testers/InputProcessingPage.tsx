import type { ProcessingResult } from '@sprout/contracts';
import { Badge, DetailRow, formatNumber, toast } from '@sprout/ui';
import { WandSparkles } from 'lucide-react';
import { api } from '@sprout/contracts';
import { endpointMutation } from '@sprout/ui';
import { useMutation } from '@tanstack/react-query';
import { PROCESSING_CONTEXT_DEFAULTS, PROCESSING_EXAMPLES, testerTexts } from './tester-texts';
import { TesterPage, type TesterSpec } from './TesterPage';
import { SectionHeading, ValidationDetails } from './ValidationDetails';

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

const PROCESSING_TESTER: TesterSpec<keyof typeof PROCESSING_CONTEXT_DEFAULTS> = {
  title: 'Input Processing',
  description: 'See how a message is enhanced with the gardener’s context before the model reads it.',
  formDescription: 'Process a message with the sender context below.',
  testIdPrefix: 'processing',
  messageLabel: 'Test message',
  legend: 'User context',
  columns: 'sm:grid-cols-2',
  fields: [
    { key: 'region', label: 'Region or ZIP' },
    { key: 'hardiness_zone', label: 'Hardiness zone' },
    { key: 'soil_type', label: 'Soil type' },
    { key: 'experience_level', label: 'Experience level' },
  ],
  submit: { icon: WandSparkles, label: 'Process Message', pendingLabel: 'Processing...' },
  resultsTitle: 'Processing results',
  idleText: 'Results appear here after processing.',
  examples: PROCESSING_EXAMPLES,
  initialContext: { ...PROCESSING_CONTEXT_DEFAULTS },
};

/** Input processing tester: how a message is enhanced with the gardener's context before the model reads it. */
export default function InputProcessingPage() {
  const processing = useMutation(
    endpointMutation(api.testers.process, {
      failureMessage: 'Failed to process message',
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: testerTexts.processingErrorTitle,
          description: error.message,
        }),
    }),
  );
  return (
    <TesterPage
      spec={PROCESSING_TESTER}
      test={processing}
      results={processing.isSuccess ? <ProcessingResults result={processing.data} /> : null}
    />
  );
}
