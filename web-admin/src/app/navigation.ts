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
  CalendarDays,
  ShieldCheck,
  Users,
} from 'lucide-react';

export interface NavEntry {
  label: string;
  path: string;
  icon: LucideIcon;
}

/** The sidebar, in this order. */
export const sidebarEntries: readonly NavEntry[] = [
  { label: 'Overview', path: '/admin/dashboard', icon: LayoutDashboard },
  { label: 'Users', path: '/admin/users', icon: Users },
  { label: 'Messages', path: '/admin/messages', icon: MessagesSquare },
  { label: 'Surveys', path: '/admin/surveys', icon: ClipboardList },
  { label: 'Garden Calendar', path: '/admin/garden-calendar', icon: CalendarDays },
  { label: 'Model Management', path: '/admin/model-management', icon: Cpu },
  { label: 'Conversation Testing', path: '/admin/ai-simulator', icon: FlaskConical },
  { label: 'Message Validation', path: '/admin/validation-test', icon: ShieldCheck },
  { label: 'Location Detection', path: '/admin/location-test', icon: MapPin },
  { label: 'Fallback System', path: '/admin/fallback-monitoring', icon: LifeBuoy },
  { label: 'Proactive Monitoring', path: '/admin/proactive-monitoring', icon: Activity },
  { label: 'System Health', path: '/admin/system-health', icon: HeartPulse },
];
