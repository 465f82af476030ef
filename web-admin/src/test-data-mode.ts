// The console-wide Test Data Mode: show test users' data (true) or real users' data (false).
// Remembered in localStorage and kept in step across tabs.

import { useSyncExternalStore } from 'react';

export const TEST_DATA_MODE_STORAGE_KEY = 'sprout.admin.testDataMode';

type Listener = () => void;

export interface TestDataModeStore {
  get: () => boolean;
  set: (value: boolean) => void;
  subscribe: (listener: Listener) => () => void;
}

/** A store over `storage`; unreadable or missing values mean real user data. */
export function createTestDataModeStore(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
): TestDataModeStore {
  const listeners = new Set<Listener>();
  let value = read();

  function read(): boolean {
    try {
      return storage?.getItem(TEST_DATA_MODE_STORAGE_KEY) === 'true';
    } catch {
      return false;
    }
  }

  return {
    get: () => value,
    set: (next) => {
      value = next;
      try {
        storage?.setItem(TEST_DATA_MODE_STORAGE_KEY, String(next));
      } catch {
        // Private browsing can refuse storage: the choice then lasts for this page only.
      }
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

const testDataMode = createTestDataModeStore(browserStorage());

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === TEST_DATA_MODE_STORAGE_KEY) testDataMode.set(event.newValue === 'true');
  });
}

/** The global Test Data Mode; every admin query passes it as showTestData / showTestUsers. */
export function useTestDataMode(): { showTestData: boolean; setShowTestData: (value: boolean) => void } {
  const showTestData = useSyncExternalStore(testDataMode.subscribe, testDataMode.get, testDataMode.get);
  return { showTestData, setShowTestData: testDataMode.set };
}
