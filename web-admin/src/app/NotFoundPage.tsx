import { Button } from '@sprout/ui';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <title>Page not found · Sprout Admin</title>
      <p className="text-6xl font-bold text-primary">404</p>
      <h1 className="text-2xl font-bold tracking-tight text-brand-dark">Page not found</h1>
      <p className="text-muted-foreground">There is no admin page at this address.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to="/admin/dashboard">Go to the dashboard</Link>
        </Button>
        <Button asChild variant="outline">
          <a href="/">Back to home</a>
        </Button>
      </div>
    </main>
  );
}
