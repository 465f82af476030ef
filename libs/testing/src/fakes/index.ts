// Fake HTTP servers for the external APIs, spoken to by the real twilio and openai SDKs (and the NWS client).
export * from './fake-twilio';
export * from './fake-openai';
export * from './fake-nws';
