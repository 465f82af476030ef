import { useToast } from '@sprout/ui';
import { lazy, Suspense, useState } from 'react';

// The toast viewport's code (Radix Toast) is only needed once something raises a toast, so it
// loads on demand; the toast store holds the first toast until the viewport has loaded.
const Toaster = lazy(() => import('./Toaster'));

export function DeferredToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
