import { useSyncExternalStore } from 'react';
import { testDataMode } from '../test-data-mode';

/** The global Test Data Mode; every admin query passes it as showTestData / showTestUsers. */
export function useTestDataMode(): { showTestData: boolean; setShowTestData: (value: boolean) => void } {
  const showTestData = useSyncExternalStore(testDataMode.subscribe, testDataMode.get, testDataMode.get);
  return { showTestData, setShowTestData: testDataMode.set };
}
