import { Button } from '@sprout/ui';
import { Link } from 'react-router';
import { PageLayout } from '../components/PageLayout';

export default function NotFoundPage() {
  return (
    <PageLayout title="Page not found · Sprout">
      <div className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
        <p className="text-6xl font-bold text-primary">404</p>
        <h1 className="text-2xl font-bold tracking-tight text-brand-dark">Page not found</h1>
        <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
        <Button asChild>
          <Link to="/">Back to home</Link>
        </Button>
      </div>
    </PageLayout>
  );
}
