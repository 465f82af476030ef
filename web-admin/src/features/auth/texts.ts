// The login page's toasts.

export const loginToasts = {
  missing: { title: 'Missing Information', description: 'Please provide both username and password.' },
  success: { title: 'Login Successful', description: 'Welcome to the admin dashboard' },
  failure: { title: 'Login Failed', fallback: 'Invalid credentials' },
} as const;
