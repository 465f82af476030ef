import { phonePattern } from '@sprout/domain';
import { maskPhoneNumbers } from '@sprout/platform';

/** A search for the log: part of a phone number keeps its first four characters only. */
export const maskSearch = (search: string): string =>
  phonePattern(search) === null ? maskPhoneNumbers(search) : `${search.trim().slice(0, 4)}***`;
