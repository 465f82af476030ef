import {
  Activity,
  Cpu,
  FlaskConical,
  HeartPulse,
  LayoutDashboard,
  LifeBuoy,
  type LucideIcon,
  MapPin,
  MessagesSquare,
  ClipboardList,
  ShieldCheck,
  Users,
} from 'lucide-react';

export interface NavEntry {
  label: string;
  path: string;
  icon: LucideIcon;
}

/** The sidebar, in the spec's order (spec 000 §2, spec 001 §2). */
export const sidebarEntries: readonly NavEntry[] = [
  { label: 'Overview', path: '/admin/dashboard', icon: LayoutDashboard },
  { label: 'Users', path: '/admin/users', icon: Users },
  { label: 'Messages', path: '/admin/messages', icon: MessagesSquare },
  { label: 'Surveys', path: '/admin/surveys', icon: ClipboardList },
  { label: 'Model Management', path: '/admin/model-management', icon: Cpu },
  { label: 'Conversation Testing', path: '/admin/ai-simulator', icon: FlaskConical },
  { label: 'Message Validation', path: '/admin/validation-test', icon: ShieldCheck },
  { label: 'Location Detection', path: '/admin/location-test', icon: MapPin },
  { label: 'Fallback System', path: '/admin/fallback-monitoring', icon: LifeBuoy },
  { label: 'Proactive Monitoring', path: '/admin/proactive-monitoring', icon: Activity },
  { label: 'System Health', path: '/admin/system-health', icon: HeartPulse },
];

/** An admin capability whose screen arrives with its own issue, and what it will show. */
export interface UpcomingCapability {
  title: string;
  summary: string;
  willShow: readonly string[];
}

export const upcomingCapabilities = {
  '/admin/fallback-monitoring': {
    title: 'Fallback System',
    summary: 'How replies fall back when a model or service is unavailable.',
    willShow: ['The fallback chain and failure thresholds', 'Service availability and consecutive failures'],
  },
  '/admin/proactive-monitoring': {
    title: 'Proactive Monitoring',
    summary: 'Predicted problems before they reach gardeners.',
    willShow: ['Active predictions', 'Response time and error rate trends', 'Resource utilisation in MB'],
  },
  '/admin/system-health': {
    title: 'System Health',
    summary: 'The health of every Sprout service.',
    willShow: [
      'Overall health and a forced health check',
      'Each service’s status, last check and consecutive failures',
    ],
  },
} satisfies Record<string, UpcomingCapability>;

export type UpcomingPath = keyof typeof upcomingCapabilities;
