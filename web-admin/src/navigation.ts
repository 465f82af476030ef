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
  '/admin/users': {
    title: 'User Management',
    summary: 'Find any gardener by phone number and see their profile, engagement and conversations.',
    willShow: [
      'Users, active users (24 hours), new users (this week), total messages and engagement rate',
      'A searchable, sortable user table with engagement levels',
      'Per-user profile, analytics for 30 days and conversation history',
    ],
  },
  '/admin/messages': {
    title: 'Messages and Conversations',
    summary: 'Every conversation with its messages, delivery status, sentiment and topics.',
    willShow: [
      'Total messages, messages today, response rate and failed messages',
      'A searchable, paginated conversation list',
      'Conversation details and a delivery status check for inactive users',
    ],
  },
  '/admin/surveys': {
    title: 'Survey Campaigns',
    summary: 'Surveys delivered inside conversations to existing or new users.',
    willShow: [
      'Active, total and completed campaigns and deliveries',
      'Campaign creation, pause and resume',
      'Deliveries per campaign',
    ],
  },
  '/admin/model-management': {
    title: 'Model Management',
    summary: 'Which AI models answer texts, what they cost, and which one is live.',
    willShow: [
      'Models with prices, max tokens, Live and Fallback badges',
      'Daily spend against the limit',
      'Usage and cost per model',
    ],
  },
  '/admin/ai-simulator': {
    title: 'Conversation Testing',
    summary: 'Talk to Sprout as a simulated test user, with images, tokens and cost per reply.',
    willShow: [
      'Test users with their mobile chat links',
      'The conversation with each reply’s tokens and cost',
      'User analytics and profile',
    ],
  },
  '/admin/validation-test': {
    title: 'Message Validation',
    summary: 'Check how Sprout judges an incoming message before it answers.',
    willShow: [
      'Validity, response type and confidence',
      'Issues with severity and suggested corrections',
      'Seven example messages',
    ],
  },
  '/admin/input-processing': {
    title: 'Input Processing',
    summary: 'See how a message is enhanced with the gardener’s context before the model reads it.',
    willShow: [
      'Original and enhanced message',
      'Applied enhancements and validation results',
      'Six example messages',
    ],
  },
  '/admin/location-test': {
    title: 'Location Detection',
    summary: 'Test which location Sprout reads from a message.',
    willShow: [
      'Detected location, type and confidence',
      'Whether the sender refused to share a location',
      'Eight example messages',
    ],
  },
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
  '/admin/image-monitoring': {
    title: 'Image Monitoring',
    summary: 'Photos texted by gardeners and how their analysis went.',
    willShow: [
      'Images processed, errors, cost, tokens and processing time',
      'Recent images with their results',
      'An image analysis tester',
    ],
  },
} satisfies Record<string, UpcomingCapability>;

export type UpcomingPath = keyof typeof upcomingCapabilities;
