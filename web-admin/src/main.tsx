import { createQueryClient, isUnauthorized, Toaster, TooltipProvider } from '@sprout/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { routes } from './app/routes';
import './index.css';

const LOGIN_PATH = '/admin/login';
const router = createBrowserRouter(routes);

// Any admin query answering 401 means the session is gone: back to the login page.
const queryClient = createQueryClient({
  onQueryError: (error) => {
    if (!isUnauthorized(error) || router.state.location.pathname === LOGIN_PATH) return;
    queryClient.clear();
    void router.navigate(LOGIN_PATH, { replace: true });
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <RouterProvider router={router} />
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  </StrictMode>,
);
