import { Sprout } from 'lucide-react';
import { Link } from 'react-router';

const linkClass =
  'rounded-sm hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

export function SiteFooter() {
  return (
    <footer className="mt-auto border-t border-border bg-muted/60">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div className="flex items-center gap-2 font-semibold text-brand-dark">
          <Sprout className="size-4" aria-hidden="true" />
          Sprout
          <span className="font-normal text-muted-foreground">Gardening advice by text message</span>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap items-center gap-x-5 gap-y-2">
            <li>
              <Link to="/live" className={linkClass}>
                Text us
              </Link>
            </li>
            <li>
              <Link to="/consent" className={linkClass}>
                SMS consent
              </Link>
            </li>
            <li>
              {/* The admin console is a separate app: a full page load. */}
              <a href="/admin" className={linkClass}>
                Admin Login
              </a>
            </li>
          </ul>
        </nav>
      </div>
      <p className="border-t border-border/70 py-4 text-center text-xs text-muted-foreground">
        © 2025 Sprout. All rights reserved.
      </p>
    </footer>
  );
}
