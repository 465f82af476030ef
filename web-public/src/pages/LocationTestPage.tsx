import { LocationTest } from '@sprout/ui';
import { PageLayout } from '../components/PageLayout';

/** Public location detection test: which location, if any, Sprout reads from a message. */
export default function LocationTestPage() {
  return (
    <PageLayout title="Location test · Sprout">
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-12 sm:px-6">
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-bold tracking-tight text-brand-dark">Location test</h1>
          <p className="text-muted-foreground">
            Sprout tailors its advice to where you garden. See what it understands from a ZIP code, a city and
            state, or a region, and how it handles vague places or a message without one.
          </p>
        </div>
        <LocationTest />
      </div>
    </PageLayout>
  );
}
