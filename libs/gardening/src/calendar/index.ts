export * from './calendar-tips';
export * from './time-zone';
export * from './offer';
export * from './daytime';
export * from './weather';
