import { Sprout } from 'lucide-react';
import { Link, NavLink } from 'react-router';
import { cn } from '@sprout/ui';

const navLinks = [
  { to: '/live', label: 'Text us' },
  { to: '/consent', label: 'SMS consent' },
];

export function SiteHeader() {
  return (
    <header className="border-b border-border/70 bg-background/90 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md text-lg font-bold text-brand-dark focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <Sprout className="size-5" aria-hidden="true" />
          </span>
          Sprout
        </Link>
        <nav aria-label="Main">
          <ul className="flex items-center gap-1 text-sm font-medium sm:gap-3">
            {navLinks.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    cn(
                      'rounded-md px-2 py-1.5 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                      isActive && 'text-foreground',
                    )
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
