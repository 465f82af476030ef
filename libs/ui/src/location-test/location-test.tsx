import type { LocationTestResult } from '@sprout/contracts';
import { MapPin } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Badge, type BadgeProps } from '../components/badge';
import { Button } from '../components/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/card';
import { DetailRow } from '../components/detail-row';
import { Textarea } from '../components/input';
import { Label } from '../components/label';
import { serverMessage } from '../api/client';
import { cn } from '../lib/cn';
import {
  formatConfidence,
  LOCATION_EXAMPLE_KIND_LABELS,
  LOCATION_TEST_EXAMPLES,
  type LocationExampleKind,
  locationTestErrorText,
} from './location-test-examples';
import { useLocationTest } from './use-location-test';

/** The server accepts messages up to this length (an SMS of ten segments). */
const MAX_MESSAGE_LENGTH = 1600;

const KIND_BADGE: Record<LocationExampleKind, BadgeProps['variant']> = {
  valid: 'default',
  vague: 'secondary',
  refusal: 'outline',
  none: 'outline',
};

function YesNo({ value }: { value: boolean }) {
  return <Badge variant={value ? 'default' : 'secondary'}>{value ? 'Yes' : 'No'}</Badge>;
}

function LocationResult({ result, message }: { result: LocationTestResult; message: string }) {
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm break-words text-muted-foreground">
        Tested: <span className="text-foreground">“{message}”</span>
      </p>
      <dl data-testid="location-result">
        <DetailRow label="Has location" testId="location-result-has-location">
          <YesNo value={result.hasLocation} />
        </DetailRow>
        <DetailRow label="Location" testId="location-result-location">
          {result.location ?? 'None'}
        </DetailRow>
        <DetailRow label="Confidence" testId="location-result-confidence">
          {formatConfidence(result.confidence)}
        </DetailRow>
        <DetailRow label="Location type" testId="location-result-type">
          <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{result.locationType ?? 'none'}</code>
        </DetailRow>
        <DetailRow label="Refused location" testId="location-result-refused">
          <YesNo value={result.refusedLocation} />
        </DetailRow>
      </dl>
    </div>
  );
}

/**
 * The location detection test shared by the public /location-test and the admin
 * /admin/location-test: a message, the detector's reading of it and eight example messages that
 * fill the message on click. Card titles are h2: the page supplies the h1.
 */
export function LocationTest({ className }: { className?: string }) {
  const [message, setMessage] = useState('');
  const detection = useLocationTest();
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const messageId = useId();
  const text = message.trim();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text || detection.isPending) return;
    detection.mutate(text);
  }

  function pickExample(example: string) {
    setMessage(example);
    messageRef.current?.focus();
  }

  return (
    <div className={cn('grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]', className)}>
      <div className="flex min-w-0 flex-col gap-6">
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Test a message</h2>
            </CardTitle>
            <CardDescription>
              Type a message as a gardener would text it, or pick an example, and see which location Sprout
              reads from it.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <form onSubmit={onSubmit} className="flex flex-col gap-3" data-testid="location-test-form">
              <Label htmlFor={messageId}>Message</Label>
              <Textarea
                id={messageId}
                ref={messageRef}
                name="message"
                value={message}
                onChange={(event) => setMessage(event.target.value)}
                placeholder="I garden in Portland, OR 97214"
                maxLength={MAX_MESSAGE_LENGTH}
                rows={3}
              />
              <Button type="submit" className="self-start" disabled={!text || detection.isPending}>
                <MapPin aria-hidden="true" />
                {detection.isPending ? 'Testing...' : 'Test Location'}
              </Button>
            </form>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Result</h2>
            </CardTitle>
          </CardHeader>
          <CardContent aria-live="polite">
            {detection.isPending ? (
              <p className="text-sm text-muted-foreground">Testing...</p>
            ) : detection.isError ? (
              <div
                role="alert"
                className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm text-destructive"
                data-testid="location-test-error"
              >
                <p className="font-medium">{locationTestErrorText(detection.error)}</p>
                {serverMessage(detection.error, '') && (
                  <p className="mt-1">{serverMessage(detection.error, '')}</p>
                )}
              </div>
            ) : detection.isSuccess ? (
              <LocationResult result={detection.data} message={detection.variables} />
            ) : (
              <p className="text-sm text-muted-foreground">
                The detected location appears here after a test.
              </p>
            )}
          </CardContent>
        </Card>
      </div>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle asChild>
            <h2>Example messages</h2>
          </CardTitle>
          <CardDescription>Pick one to put it in the message box.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="flex flex-col gap-2" data-testid="location-examples">
            {LOCATION_TEST_EXAMPLES.map((example) => (
              <li key={example.message}>
                <button
                  type="button"
                  onClick={() => pickExample(example.message)}
                  className="flex w-full cursor-pointer flex-col gap-1 rounded-md border border-border bg-background px-3 py-2 text-left text-sm transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="font-medium">{example.label}</span>
                    <Badge variant={KIND_BADGE[example.kind]}>
                      {LOCATION_EXAMPLE_KIND_LABELS[example.kind]}
                    </Badge>
                  </span>
                  <span className="text-muted-foreground">{example.message}</span>
                </button>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
