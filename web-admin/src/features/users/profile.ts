import type { UserProfileDto } from '@sprout/contracts';

/** True when the profile says nothing at all ('No profile data available'). */
export function isProfileEmpty(profile: UserProfileDto): boolean {
  return (
    !profile.region?.trim() &&
    !profile.growingContext?.trim() &&
    profile.preferences.length === 0 &&
    !profile.conversationStyle?.trim()
  );
}
