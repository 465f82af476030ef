// The tests' one setup. Browser tests: a web stack and Chromium for the file, a fresh page (own
// cookies and storage) for each test, signed in as the admin unless asked otherwise. Service tests:
// a database and Redis prefix for the services they start. Everything is closed at the end.
import {
  type Browser,
  type BrowserContext,
  launchBrowser,
  openPage as openBrowserPage,
  type Page,
} from '@sprout/testing/browser';
import { ADMIN_PASSWORD, ADMIN_USERNAME, Services } from './services';
import { startWebStack, type WebStack, type WebStackOptions } from './stack';

type Viewport = { width: number; height: number };

export interface BrowserStackOptions extends WebStackOptions {
  /** Runs once the stack is up, before Chromium starts: seeding, more services. */
  setup?: (stack: WebStack) => Promise<void>;
  /** How long starting, setup included, may take (default: the test timeout). */
  setupTimeoutMs?: number;
  /** Environment the stack reads at start (settings that have no option), restored at the end. */
  env?: Record<string, string>;
  /** Each test's page is signed in as the admin (default true). */
  signedIn?: boolean;
  /** Opens a page for each test (default true); false: the file calls openPage where it wants one. */
  pagePerTest?: boolean;
  /** Runs on every page opened, before a test uses it (listeners, init scripts). */
  onPage?: (page: Page) => Promise<unknown> | void;
}

interface PageOptions {
  viewport?: Viewport;
  signedIn?: boolean;
}

export interface BrowserStack {
  stack: WebStack;
  browser: Browser;
  /** The current page and its context: each test's own (see pagePerTest). */
  page: Page;
  context: BrowserContext;
  /** What the current page's browser reported: uncaught exceptions and console errors. */
  errors: string[];
  /** Signs the current page's context in as the admin. */
  login(): Promise<void>;
  /** Closes the current page and opens a fresh one (signed in as the file's pages are, unless told). */
  openPage(options?: PageOptions): Promise<void>;
}

/** Signs `context` in as the e2e admin (its cookie jar, so its pages too). */
export async function signIn(context: BrowserContext): Promise<void> {
  const response = await context.request.post('/api/admin/login', {
    data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
  });
  if (response.status() !== 200) throw new Error(`Admin login answered ${response.status()}`);
}

/**
 * Starts the stack and Chromium before the file's tests and closes them after; call it at the top
 * of the file, before any hook that uses what it answers. What it answers may be destructured at
 * once: each is a stand-in that reaches the current object when used (inside hooks and tests).
 */
export function useBrowserStack(options: BrowserStackOptions = {}): BrowserStack {
  const {
    setup,
    setupTimeoutMs,
    env = {},
    signedIn = true,
    pagePerTest = true,
    onPage,
    ...stackOptions
  } = options;
  let stack: WebStack | undefined;
  let browser: Browser | undefined;
  let session: { context: BrowserContext; page: Page } | undefined;
  const errors: string[] = [];
  const saved = Object.keys(env).map((name) => [name, process.env[name]] as const);

  const closePage = async (): Promise<void> => {
    const open = session;
    session = undefined;
    await open?.context.close();
  };
  const openPage = async (pageOptions: PageOptions = {}): Promise<void> => {
    await closePage();
    errors.length = 0;
    session = await openBrowserPage(current('browser', browser), {
      baseURL: current('stack', stack).baseUrl,
      errors,
      ...(pageOptions.viewport ? { viewport: pageOptions.viewport } : {}),
    });
    if (pageOptions.signedIn ?? signedIn) await signIn(session.context);
    await onPage?.(session.page);
  };

  beforeAll(async () => {
    Object.assign(process.env, env);
    stack = await startWebStack(stackOptions);
    await setup?.(stack);
    browser = await launchBrowser();
  }, setupTimeoutMs);

  afterAll(async () => {
    await closePage();
    await browser?.close();
    await stack?.close();
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  if (pagePerTest) {
    beforeEach(() => openPage());
    afterEach(closePage);
  }

  return {
    stack: live('stack', () => stack),
    browser: live('browser', () => browser),
    page: live('page', () => session?.page),
    context: live('context', () => session?.context),
    errors,
    login: () => signIn(current('context', session?.context)),
    openPage,
  };
}

/** A test database and Redis prefix for the file's (or the describe block's) services, closed after. */
export function useServices(): Services {
  let services: Services | undefined;
  beforeAll(async () => {
    services = await Services.start();
  });
  afterAll(async () => {
    await services?.close();
  });
  return live('services', () => services);
}

function current<T>(what: string, value: T | undefined): T {
  if (value === undefined) throw new Error(`No ${what} is open here: use it inside a hook or a test`);
  return value;
}

/** Stands in for the object `read` answers at the time of each use, its methods bound to it. */
function live<T extends object>(what: string, read: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const object = current(what, read());
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
    has(_target, key) {
      return Reflect.has(current(what, read()), key);
    },
  });
}
