import type { RouteObject } from 'react-router';
import { AdminLayout } from './layouts/AdminLayout';
import DashboardPage from './pages/DashboardPage';
import ImageMonitoringPage from './pages/images/ImageMonitoringPage';
import LoginPage from './pages/LoginPage';
import MobileConversationPage from './pages/MobileConversationPage';
import NotFoundPage from './pages/NotFoundPage';
import SimulatorPage from './pages/simulator/SimulatorPage';
import AdminLocationTestPage from './pages/testers/AdminLocationTestPage';
import InputProcessingPage from './pages/testers/InputProcessingPage';
import ValidationTestPage from './pages/testers/ValidationTestPage';
import MessagesPage from './pages/messages/MessagesPage';
import FallbackMonitoringPage from './pages/monitoring/FallbackMonitoringPage';
import MonitoringDashboardPage from './pages/monitoring/MonitoringDashboardPage';
import ProactiveMonitoringPage from './pages/monitoring/ProactiveMonitoringPage';
import SystemHealthPage from './pages/monitoring/SystemHealthPage';
import ModelManagementPage from './pages/models/ModelManagementPage';
import SurveysPage from './pages/surveys/SurveysPage';
import UsersPage from './pages/users/UsersPage';
import UsersRedirect from './pages/users/UsersRedirect';

export const routes: RouteObject[] = [
  { path: '/admin', element: <LoginPage /> },
  { path: '/admin/login', element: <LoginPage /> },
  {
    element: <AdminLayout />,
    children: [
      { path: '/admin/dashboard', element: <DashboardPage /> },
      { path: '/admin/users', element: <UsersPage /> },
      { path: '/admin/messages', element: <MessagesPage /> },
      { path: '/admin/surveys', element: <SurveysPage /> },
      { path: '/admin/location-test', element: <AdminLocationTestPage /> },
      { path: '/admin/validation-test', element: <ValidationTestPage /> },
      { path: '/admin/input-processing', element: <InputProcessingPage /> },
      { path: '/admin/model-management', element: <ModelManagementPage /> },
      { path: '/admin/image-monitoring', element: <ImageMonitoringPage /> },
      { path: '/admin/system-health', element: <SystemHealthPage /> },
      { path: '/admin/fallback-monitoring', element: <FallbackMonitoringPage /> },
      { path: '/admin/proactive-monitoring', element: <ProactiveMonitoringPage /> },
      // The monitoring dashboard's route is ours (spec 001 §2 does not show it); the Overview links to it.
      { path: '/admin/monitoring', element: <MonitoringDashboardPage /> },
      { path: '/admin/ai-simulator', element: <SimulatorPage /> },
      // The simulator has a second address outside /admin (spec 000 §2).
      { path: '/ai-conversation-simulator', element: <SimulatorPage /> },
    ],
  },
  { path: '/mobile-conversation/:userId', element: <MobileConversationPage /> },
  // The Messages screen links a conversation's phone to /users?search={phone} (spec 000).
  { path: '/users', element: <UsersRedirect /> },
  { path: '*', element: <NotFoundPage /> },
];
