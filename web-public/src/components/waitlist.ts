import type { JoinWaitlistBody } from '../api/beta-signup';

/** The waitlist request, or null when the email or zip code is missing. */
export function waitlistRequest(email: string, zipCode: string): JoinWaitlistBody | null {
  const trimmedEmail = email.trim();
  const region = zipCode.trim();
  if (!trimmedEmail || !region) return null;
  return { email: trimmedEmail, region };
}

export const waitlistToasts = {
  success: {
    title: 'Welcome to the waitlist!',
    description: "Thanks for joining! We'll reach out when the beta is live and ready.",
  },
  missing: { title: 'Missing Information', description: 'Please provide both email and region.' },
  alreadyRegistered: { title: "You're already on the waitlist" },
  failure: { title: 'Error', fallback: 'Failed to sign up. Please try again.' },
} as const;
