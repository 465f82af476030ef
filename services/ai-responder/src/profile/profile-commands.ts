import type { UserProfile } from '@sprout/domain';
import { type ProfileCommand, describeProfileCommand } from '@sprout/gardening';
import { type LocationPatch, locationOfZip } from '../location/location-rules';

/** What a profile command (ZIP 98101, ZONE 7b, SOIL clay, LEVEL beginner) changes, and its reply. */
export interface CommandOutcome {
  /** The confirmation, or for a bad value what a good one looks like. */
  reply: string;
  /** User columns to set (a ZIP also sets city, state, region and zone, and lifts a refusal). */
  userPatch: LocationPatch & { locationRefused?: boolean };
  profilePatch: Partial<UserProfile>;
}

export const applyProfileCommand = (command: ProfileCommand): CommandOutcome => {
  const reply = describeProfileCommand(command);
  if (command.value === null) return { reply, userPatch: {}, profilePatch: {} };
  switch (command.kind) {
    case 'zip': {
      const location = locationOfZip(command.value);
      const userPatch = location ?? { zipCode: command.value };
      return {
        reply,
        userPatch: { ...userPatch, locationRefused: false },
        profilePatch: location?.region ? { region: location.region } : {},
      };
    }
    case 'zone':
      return { reply, userPatch: { hardinessZone: command.value }, profilePatch: {} };
    case 'soil':
      return { reply, userPatch: {}, profilePatch: { soilType: command.value } };
    case 'level':
      return { reply, userPatch: {}, profilePatch: { experienceLevel: command.value } };
  }
};
