import type { RouteObject } from 'react-router';
import { AdminLayout } from './layouts/AdminLayout';
import { upcomingCapabilities, type UpcomingPath } from './navigation';
import DashboardPage from './pages/DashboardPage';
import LoginPage from './pages/LoginPage';
import MobileConversationPage from './pages/MobileConversationPage';
import NotFoundPage from './pages/NotFoundPage';
import UpcomingPage from './pages/UpcomingPage';

const upcomingRoutes: RouteObject[] = (Object.keys(upcomingCapabilities) as UpcomingPath[]).map((path) => ({
  path,
  element: <UpcomingPage path={path} />,
}));

export const routes: RouteObject[] = [
  { path: '/admin', element: <LoginPage /> },
  { path: '/admin/login', element: <LoginPage /> },
  {
    element: <AdminLayout />,
    children: [
      { path: '/admin/dashboard', element: <DashboardPage /> },
      ...upcomingRoutes,
      // The simulator has a second address outside /admin (spec 000 §2).
      { path: '/ai-conversation-simulator', element: <UpcomingPage path="/admin/ai-simulator" /> },
    ],
  },
  { path: '/mobile-conversation/:userId', element: <MobileConversationPage /> },
  { path: '*', element: <NotFoundPage /> },
];
