import type { RouteObject } from 'react-router';
import { AdminLayout } from './AdminLayout';
import DashboardPage from '../features/dashboard/DashboardPage';
import GardenCalendarPage from '../features/garden-calendar/GardenCalendarPage';
import ImageMonitoringPage from '../features/images/ImageMonitoringPage';
import LoginPage from '../features/auth/LoginPage';
import MobileConversationPage from '../features/mobile-chat/MobileConversationPage';
import NotFoundPage from './NotFoundPage';
import SimulatorPage from '../features/simulator/SimulatorPage';
import AdminLocationTestPage from '../features/testers/AdminLocationTestPage';
import InputProcessingPage from '../features/testers/InputProcessingPage';
import ValidationTestPage from '../features/testers/ValidationTestPage';
import MessagesPage from '../features/messages/MessagesPage';
import FallbackMonitoringPage from '../features/monitoring/FallbackMonitoringPage';
import MonitoringDashboardPage from '../features/monitoring/MonitoringDashboardPage';
import ProactiveMonitoringPage from '../features/monitoring/ProactiveMonitoringPage';
import SystemHealthPage from '../features/monitoring/SystemHealthPage';
import ModelManagementPage from '../features/models/ModelManagementPage';
import SurveysPage from '../features/surveys/SurveysPage';
import UsersPage from '../features/users/UsersPage';
import UsersRedirect from '../features/users/UsersRedirect';

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
      { path: '/admin/garden-calendar', element: <GardenCalendarPage /> },
      { path: '/admin/location-test', element: <AdminLocationTestPage /> },
      { path: '/admin/validation-test', element: <ValidationTestPage /> },
      { path: '/admin/input-processing', element: <InputProcessingPage /> },
      { path: '/admin/model-management', element: <ModelManagementPage /> },
      { path: '/admin/image-monitoring', element: <ImageMonitoringPage /> },
      { path: '/admin/system-health', element: <SystemHealthPage /> },
      { path: '/admin/fallback-monitoring', element: <FallbackMonitoringPage /> },
      { path: '/admin/proactive-monitoring', element: <ProactiveMonitoringPage /> },
      // The monitoring dashboard has no sidebar entry; the Overview links to it.
      { path: '/admin/monitoring', element: <MonitoringDashboardPage /> },
      { path: '/admin/ai-simulator', element: <SimulatorPage /> },
      // The simulator has a second address outside /admin.
      { path: '/ai-conversation-simulator', element: <SimulatorPage /> },
    ],
  },
  { path: '/mobile-conversation/:userId', element: <MobileConversationPage /> },
  // The Messages screen links a conversation's phone to /users?search={phone}.
  { path: '/users', element: <UsersRedirect /> },
  { path: '*', element: <NotFoundPage /> },
];
