// Every query of the public site; the first element is the URL (spec 000 §7).
export const queryKeys = {
  publicConfig: ['/api/public-config'] as const,
};
