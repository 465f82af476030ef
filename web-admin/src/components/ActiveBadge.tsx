import { Badge } from '@sprout/ui';

/** A user's status: Active (filled) or Inactive (muted). */
export function ActiveBadge({ active }: { active: boolean }) {
  return <Badge variant={active ? 'default' : 'secondary'}>{active ? 'Active' : 'Inactive'}</Badge>;
}
