import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Label,
  serverMessage,
  Textarea,
  toast,
} from '@sprout/ui';
import { type FormEvent, useState } from 'react';
import { PageLayout } from '../components/PageLayout';
import { useTestLocation } from '../hooks/useTestLocation';

/** Confidence travels as 0 to 1. */
function formatConfidence(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** Public location detection test: what Sprout reads as a location in a message. */
export default function LocationTestPage() {
  const [message, setMessage] = useState('');
  const detect = useTestLocation();
  const result = detect.data;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = message.trim();
    if (!text) {
      toast({ title: 'Missing Information', description: 'Please enter a message to test.' });
      return;
    }
    detect.mutate(text, {
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(error, 'Failed to test location.'),
        }),
    });
  }

  return (
    <PageLayout title="Location test · Sprout">
      <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12 sm:px-6">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-bold tracking-tight text-brand-dark">Location test</h1>
          <p className="text-muted-foreground">
            Type a message as you would text it to Sprout and see which location, if any, it detects.
          </p>
        </div>
        <form onSubmit={onSubmit} className="flex flex-col gap-3">
          <Label htmlFor="location-message">Message</Label>
          <Textarea
            id="location-message"
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            placeholder="I garden in Portland, OR 97214"
            rows={3}
          />
          <Button type="submit" className="self-start" disabled={detect.isPending || !message.trim()}>
            {detect.isPending ? 'Detecting...' : 'Detect location'}
          </Button>
        </form>
        {result && (
          <Card aria-live="polite" data-testid="location-result">
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                Result
                <Badge variant={result.hasLocation ? 'default' : 'secondary'}>
                  {result.hasLocation ? 'Location found' : 'No location'}
                </Badge>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
                <dt className="text-muted-foreground">Location</dt>
                <dd>{result.location ?? '—'}</dd>
                <dt className="text-muted-foreground">Type</dt>
                <dd>{result.locationType ?? '—'}</dd>
                <dt className="text-muted-foreground">Confidence</dt>
                <dd>{formatConfidence(result.confidence)}</dd>
                <dt className="text-muted-foreground">Refused to share</dt>
                <dd>{result.refusedLocation ? 'Yes' : 'No'}</dd>
              </dl>
            </CardContent>
          </Card>
        )}
      </div>
    </PageLayout>
  );
}
