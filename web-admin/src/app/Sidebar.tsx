import { cn } from '@sprout/ui';
import { Sprout } from 'lucide-react';
import { NavLink } from 'react-router';
import { sidebarEntries } from './navigation';
import { AdminUserBadge } from './AdminUserBadge';
import { TestDataModeSwitch } from './TestDataModeSwitch';

/**
 * The admin navigation. `showBrand` false: the menu opens under a bar that already says
 * "Sprout Admin" (phones), so it is not said twice.
 */
export function Sidebar({ onNavigate, showBrand = true }: { onNavigate?: () => void; showBrand?: boolean }) {
  return (
    <div className="flex h-full flex-col gap-4 p-4">
      {showBrand && (
        <a href="/admin/dashboard" className="flex items-center gap-2 px-2 text-lg font-bold text-brand-dark">
          <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <Sprout className="size-5" aria-hidden="true" />
          </span>
          Sprout Admin
        </a>
      )}
      <nav aria-label="Admin" className="flex-1 overflow-y-auto">
        <ul className="flex flex-col gap-0.5" data-testid="sidebar-nav">
          {sidebarEntries.map(({ label, path, icon: Icon }) => (
            <li key={path}>
              <NavLink
                to={path}
                onClick={onNavigate}
                className={({ isActive }) =>
                  cn(
                    'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                    isActive &&
                      'bg-primary text-primary-foreground hover:bg-primary hover:text-primary-foreground',
                  )
                }
              >
                <Icon className="size-4 shrink-0" aria-hidden="true" />
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <TestDataModeSwitch />
      <AdminUserBadge />
    </div>
  );
}
