import { Button, Collapsible, CollapsibleContent, CollapsibleTrigger, LoadingText } from '@sprout/ui';
import { Menu, Sprout } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { authStatusQuery } from '../features/auth/queries';
import { Sidebar } from './Sidebar';

/** The console shell: sidebar (a collapsible menu on phones) and the page. Signed-out visitors go to login. */
export function AdminLayout() {
  const { data: auth, isPending } = useQuery(authStatusQuery);
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const signedOut = auth !== undefined && !auth.authenticated;

  useEffect(() => {
    if (signedOut) void navigate('/admin/login', { replace: true });
  }, [signedOut, navigate]);

  if (isPending || signedOut) return <LoadingText>Loading...</LoadingText>;

  return (
    <div className="min-h-screen bg-muted/40 md:flex">
      <aside className="hidden w-64 shrink-0 border-r border-border bg-sidebar md:sticky md:top-0 md:block md:h-screen">
        <Sidebar />
      </aside>
      <Collapsible
        open={menuOpen}
        onOpenChange={setMenuOpen}
        className="border-b border-border bg-sidebar md:hidden"
      >
        <div className="flex items-center justify-between px-4 py-3">
          <a href="/admin/dashboard" className="flex items-center gap-2 font-bold text-brand-dark">
            <Sprout className="size-5 text-primary" aria-hidden="true" />
            Sprout Admin
          </a>
          <CollapsibleTrigger asChild>
            <Button variant="outline" size="sm" aria-label="Menu">
              <Menu aria-hidden="true" />
            </Button>
          </CollapsibleTrigger>
        </div>
        <CollapsibleContent>
          <Sidebar showBrand={false} onNavigate={() => setMenuOpen(false)} />
        </CollapsibleContent>
      </Collapsible>
      <main className="min-w-0 flex-1 p-4 sm:p-6 lg:p-8">
        <Outlet />
      </main>
    </div>
  );
}
