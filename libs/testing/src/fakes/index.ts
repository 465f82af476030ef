// Fake HTTP servers for the external APIs, spoken to by the real twilio and openai SDKs.
export * from './fake-twilio';
export * from './fake-openai';
