import type { BetaSignupDto } from '@sprout/contracts';
import { RECENT_SIGNUPS_SHOWN } from './texts';

/** The newest signups first, at most RECENT_SIGNUPS_SHOWN of them. */
export function recentSignups(signups: readonly BetaSignupDto[]): BetaSignupDto[] {
  return [...signups]
    .sort((a, b) => new Date(b.signupDate).getTime() - new Date(a.signupDate).getTime())
    .slice(0, RECENT_SIGNUPS_SHOWN);
}

/** Pending signups show a secondary badge, any other status a default one. */
export function signupBadgeVariant(status: string): 'secondary' | 'default' {
  return status === 'pending' ? 'secondary' : 'default';
}
