import { matchRoutes } from 'react-router';
import { sidebarEntries } from '../src/app/navigation';
import { recentSignups, signupBadgeVariant } from '../src/features/dashboard/recent-signups';
import { routes } from '../src/app/routes';
import { createTestDataModeStore, TEST_DATA_MODE_STORAGE_KEY } from '../src/test-data-mode';
import { loginToasts } from '../src/features/auth/texts';
import { RECENT_SIGNUPS_SHOWN } from '../src/features/dashboard/texts';

function routeFor(path: string) {
  const matches = matchRoutes(routes, path) ?? [];
  return matches[matches.length - 1]?.route.path;
}

describe('sidebar', () => {
  it('has its twelve entries (Garden Calendar after the eleven of the console), in order', () => {
    expect(sidebarEntries.map((e) => e.label)).toEqual([
      'Overview',
      'Users',
      'Messages',
      'Surveys',
      'Garden Calendar',
      'Model Management',
      'Conversation Testing',
      'Message Validation',
      'Location Detection',
      'Fallback System',
      'Proactive Monitoring',
      'System Health',
    ]);
  });

  it('links only to routes the console has', () => {
    for (const entry of sidebarEntries) expect(routeFor(entry.path)).toBe(entry.path);
  });
});

describe('routes', () => {
  it.each([
    '/admin',
    '/admin/login',
    '/admin/dashboard',
    '/admin/input-processing',
    '/admin/image-monitoring',
    '/ai-conversation-simulator',
    '/mobile-conversation/:userId',
  ])('%s has its own page', (path) => {
    expect(routeFor(path.replace(':userId', 'abc'))).toBe(path);
  });

  it('sends any other path to the 404 page', () => {
    expect(routeFor('/admin/nope')).toBe('*');
  });
});

describe('Test Data Mode store', () => {
  function memoryStorage(initial: Record<string, string> = {}) {
    const data = new Map(Object.entries(initial));
    return {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      data,
    };
  }

  it('starts on real user data and remembers the choice', () => {
    const storage = memoryStorage();
    const store = createTestDataModeStore(storage);
    expect(store.get()).toBe(false);
    const seen: boolean[] = [];
    const unsubscribe = store.subscribe(() => seen.push(store.get()));
    store.set(true);
    unsubscribe();
    store.set(false);
    expect(seen).toEqual([true]);
    expect(storage.data.get(TEST_DATA_MODE_STORAGE_KEY)).toBe('false');
    expect(createTestDataModeStore(memoryStorage({ [TEST_DATA_MODE_STORAGE_KEY]: 'true' })).get()).toBe(true);
  });

  it('works without storage', () => {
    const store = createTestDataModeStore(null);
    store.set(true);
    expect(store.get()).toBe(true);
  });
});

describe('recent beta signups', () => {
  const signup = (n: number, status = 'pending') => ({
    id: String(n),
    email: `s${n}@example.com`,
    zipCode: '94117',
    uniqueCode: `CODE${n}`,
    signupDate: new Date(Date.UTC(2025, 0, n)).toISOString(),
    status,
  });

  it('shows the newest ten', () => {
    const shown = recentSignups(Array.from({ length: 12 }, (_, i) => signup(i + 1)));
    expect(RECENT_SIGNUPS_SHOWN).toBe(10);
    expect(shown.map((s) => s.id)).toEqual(['12', '11', '10', '9', '8', '7', '6', '5', '4', '3']);
  });

  it('badges pending as secondary and anything else as default', () => {
    expect(signupBadgeVariant('pending')).toBe('secondary');
    expect(signupBadgeVariant('approved')).toBe('default');
  });
});

describe('login texts', () => {
  it('are the fixed login texts', () => {
    expect(loginToasts.missing).toEqual({
      title: 'Missing Information',
      description: 'Please provide both username and password.',
    });
    expect(loginToasts.success).toEqual({
      title: 'Login Successful',
      description: 'Welcome to the admin dashboard',
    });
    expect(loginToasts.failure).toEqual({ title: 'Login Failed', fallback: 'Invalid credentials' });
  });
});
