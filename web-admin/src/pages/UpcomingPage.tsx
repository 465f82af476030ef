import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@sprout/ui';
import { Sprout } from 'lucide-react';
import { PageHeader } from '../components/PageHeader';
import { upcomingCapabilities, type UpcomingPath } from '../navigation';

/** An admin capability whose screen is built by its own issue: says what is coming and what it will show. */
export default function UpcomingPage({ path }: { path: UpcomingPath }) {
  const capability = upcomingCapabilities[path];
  return (
    <>
      <PageHeader title={capability.title} description={capability.summary} />
      <Card className="max-w-2xl" data-testid="upcoming-capability">
        <CardHeader>
          <CardTitle asChild className="flex items-center gap-2">
            <h2>
              <Sprout className="size-5 text-primary" aria-hidden="true" />
              Coming to the console
            </h2>
          </CardTitle>
          <CardDescription>
            The {capability.title} screen is not built yet; it comes with its own release of the console.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <p className="mb-2 text-sm font-medium">It will show:</p>
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            {capability.willShow.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </>
  );
}
