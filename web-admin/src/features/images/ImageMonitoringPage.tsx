import {
  api,
  type ImageMessageDto,
  type ImageStats,
  type ImageValidationTestResponse,
} from '@sprout/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  CardContent,
  formatDateTime,
  formatDollars,
  formatNumber,
  formatPhoneNumber,
  LoadingText,
  serverMessage,
  Textarea,
  toast,
  endpointMutation,
} from '@sprout/ui';
import { AlertTriangle, CheckCircle2, Clock, Coins, Hash, Image as ImageIcon, Percent } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { FormField, TextField } from '../../components/FormField';
import { PageHeader } from '../../components/PageHeader';
import { SectionCard } from '../../components/SectionCard';
import { TabPanels } from '../../components/TabPanels';
import { countCard, FailureNotice, type StatCardDef, StatCardRow } from '../../components/StatCard';
import { imageMessagesQuery, imageProcessingTestMutation, imageStatsQuery } from './queries';
import { ImageThumbnail } from './ImageThumbnail';
import { imageTexts as t } from './texts';

/** The message's text from a thrown answer (the server's message), else 'Unknown error'. */
const failure = (error: unknown): string =>
  serverMessage(error, error instanceof Error && error.message ? error.message : t.unknownError);

/** Processed of all images, in percent (0 with no images). */
const successRate = (stats: ImageStats): number =>
  stats.totalImages > 0 ? (stats.processedImages / stats.totalImages) * 100 : 0;

const OVERVIEW_CARDS: readonly StatCardDef<ImageStats>[] = [
  countCard('image-total', t.totalImages, ImageIcon, (s) => s.totalImages, 'MMS photos received'),
  countCard(
    'image-processed',
    t.processed,
    CheckCircle2,
    (s) => s.processedImages,
    (s) => `${successRate(s).toFixed(1)}% ${t.successRate.toLowerCase()}`,
  ),
  {
    ...countCard('image-errors', t.errors, AlertTriangle, (s) => s.failedImages, 'Could not be analysed'),
    tone: (stats) => (stats.failedImages > 0 ? 'warning' : 'default'),
  },
  {
    testId: 'image-cost',
    title: t.totalCost,
    icon: Coins,
    value: (stats) => formatDollars(stats.totalCost, 4),
    detail: (stats) => `${formatNumber(stats.totalTokens)} tokens`,
  },
  countCard('image-tokens', t.totalTokens, Hash, (s) => s.totalTokens, 'Prompt and completion'),
  {
    testId: 'image-avg-time',
    title: t.avgTime,
    icon: Clock,
    value: (stats) => `${formatNumber(stats.avgProcessingTime)} ms`,
    detail: 'Mean analysis time',
  },
  {
    testId: 'image-success-rate',
    title: t.successRate,
    icon: Percent,
    value: (stats) => `${successRate(stats).toFixed(1)}%`,
    detail: 'Processed of all images',
  },
];

function Overview() {
  const { data: stats, isPending, isError } = useQuery(imageStatsQuery);
  if (isError) return <FailureNotice>{t.loadFailed}</FailureNotice>;
  if (isPending) return <LoadingText>{t.loading}</LoadingText>;
  return (
    <StatCardRow
      label="Image totals"
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
      data={stats}
      placeholder={t.loading}
      cards={OVERVIEW_CARDS}
    />
  );
}

function statusBadge(message: ImageMessageDto) {
  if (message.imageProcessed === true)
    return <Badge className="bg-green-600 text-white">{t.processedBadge}</Badge>;
  if (message.imageProcessed === false) return <Badge variant="destructive">{t.failedBadge}</Badge>;
  return <Badge variant="secondary">{t.pendingBadge}</Badge>;
}

function RecentImages() {
  const { data: messages, isPending, isError } = useQuery(imageMessagesQuery);
  if (isError) return <FailureNotice>{t.loadFailed}</FailureNotice>;
  if (isPending) return <LoadingText>{t.loading}</LoadingText>;
  if (messages.length === 0) return <p className="py-8 text-center text-muted-foreground">{t.noImages}</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Recent images">
      {messages.map((message) => (
        <li key={message.id} data-testid="image-message">
          <Card>
            <CardContent className="flex gap-4 p-4">
              <ImageThumbnail
                url={message.imageUrl}
                alt={`Image from ${formatPhoneNumber(message.user.phoneNumber)}`}
              />
              <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{formatPhoneNumber(message.user.phoneNumber)}</span>
                  {statusBadge(message)}
                  <span className="text-muted-foreground">{formatDateTime(message.createdAt)}</span>
                </div>
                <p className="break-words">{message.content}</p>
                {message.imageAnalysis && (
                  <p
                    className="break-words whitespace-pre-line text-muted-foreground"
                    data-testid="image-analysis"
                  >
                    {message.imageAnalysis}
                  </p>
                )}
                <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                  <span>Type: {message.imageContentType ?? '—'}</span>
                  <span>Tokens: {formatNumber(message.tokenUsage)}</span>
                  <span>Cost: {formatDollars(message.cost, 4)}</span>
                  <span>Model: {message.modelUsed ?? '—'}</span>
                </div>
                {message.imageProcessingError && (
                  <p className="break-words text-destructive" data-testid="image-error">
                    {message.imageProcessingError}
                  </p>
                )}
              </div>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}

function ValidationResults({ results }: { results: ImageValidationTestResponse }) {
  return (
    <div className="flex flex-col gap-2" data-testid="validation-results">
      <p className="text-sm font-medium">{`${results.passed} of ${results.total} passed`}</p>
      <ul className="flex flex-col gap-2 text-sm">
        {results.testResults.map((result) => (
          <li key={result.name} className="rounded-md border p-2" data-testid="validation-case">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={result.success ? 'default' : 'destructive'}>
                {result.success ? 'Pass' : 'Fail'}
              </Badge>
              <span className="font-medium">{result.name}</span>
              <span className="text-muted-foreground">
                expected {result.expectedValid ? 'valid' : 'invalid'}, got{' '}
                {result.actualValid ? 'valid' : 'invalid'}
              </span>
            </div>
            {result.reason && (
              <p className="mt-1 break-words text-xs text-muted-foreground">{result.reason}</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The test form's fields: label above control, a little apart. */
const FIELD_LAYOUT = 'flex flex-col gap-2';

function Testing() {
  const [imageUrl, setImageUrl] = useState('');
  const [messageText, setMessageText] = useState<string>(t.defaultMessage);
  const [phoneNumber, setPhoneNumber] = useState<string>(t.defaultPhone);
  const processing = useMutation(imageProcessingTestMutation(useQueryClient()));
  const validation = useMutation(endpointMutation(api.images.validationTest));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!imageUrl.trim()) {
      toast({ title: t.processingFailed, description: t.urlRequired, variant: 'destructive' });
      return;
    }
    processing.mutate(
      { body: { imageUrl: imageUrl.trim(), messageText, phoneNumber } },
      {
        onSuccess: (answer) =>
          toast({
            title: t.processingOk,
            description: `Tokens: ${formatNumber(answer.imageProcessing.tokensUsed)}, Cost: ${formatDollars(answer.imageProcessing.cost, 4)}`,
          }),
        onError: (error) =>
          toast({ title: t.processingFailed, description: failure(error), variant: 'destructive' }),
      },
    );
  }

  function runValidation() {
    validation.mutate(
      {},
      {
        onSuccess: (answer) =>
          toast({
            title: t.validationOk,
            description: `${answer.passed} out of ${answer.total} tests passed`,
          }),
        onError: (error) =>
          toast({ title: t.validationFailed, description: failure(error), variant: 'destructive' }),
      },
    );
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <SectionCard
        title="Test image processing"
        description="Send a picture through the analysis as an MMS from a test number."
      >
        <form className="flex flex-col gap-4" onSubmit={onSubmit} data-testid="image-test-form" noValidate>
          <TextField
            id="image-url"
            label={t.imageUrl}
            fieldClassName={FIELD_LAYOUT}
            type="url"
            value={imageUrl}
            placeholder="https://example.com/plant.jpg"
            onValueChange={setImageUrl}
          />
          <FormField id="image-message" label={t.messageText} className={FIELD_LAYOUT}>
            <Textarea
              id="image-message"
              value={messageText}
              onChange={(e) => setMessageText(e.target.value)}
            />
          </FormField>
          <TextField
            id="image-phone"
            label={t.phoneNumber}
            fieldClassName={FIELD_LAYOUT}
            value={phoneNumber}
            onValueChange={setPhoneNumber}
          />
          <Button type="submit" disabled={processing.isPending}>
            {t.runProcessing}
          </Button>
        </form>
        {processing.data && (
          <p className="mt-4 break-words whitespace-pre-line text-sm" data-testid="image-test-analysis">
            {processing.data.imageProcessing.analysis}
          </p>
        )}
      </SectionCard>
      <SectionCard
        title="Validation suite"
        description="Real pictures served by Sprout, and unsafe or unusable URLs the fetcher must refuse."
        contentClassName="flex flex-col gap-4"
      >
        <Button type="button" variant="outline" onClick={runValidation} disabled={validation.isPending}>
          {t.runValidation}
        </Button>
        {validation.data && <ValidationResults results={validation.data} />}
      </SectionCard>
    </div>
  );
}

/** Image monitoring: Overview, Recent Images and Testing. */
export default function ImageMonitoringPage() {
  return (
    <>
      <PageHeader title={t.title} description={t.description} />
      <TabPanels
        className="flex flex-col gap-4"
        listClassName="self-start"
        tabs={[
          { value: 'overview', label: t.tabs.overview, content: <Overview /> },
          { value: 'recent', label: t.tabs.recent, content: <RecentImages /> },
          { value: 'testing', label: t.tabs.testing, content: <Testing /> },
        ]}
      />
    </>
  );
}
