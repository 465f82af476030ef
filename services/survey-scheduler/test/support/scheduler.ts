import { type TestStores, startOnStores, useClosable } from '@sprout/testing';
import { createApp } from '../../src/app';
import type { SurveySchedulerConfig } from '../../src/config';

/**
 * The survey-scheduler on its own stores and a free port for the file's tests; `settings` may
 * start fakes on the stores (adopted, so closed with them) and name more configuration.
 */
export const useScheduler = (
  settings: (stores: TestStores) => Promise<Partial<SurveySchedulerConfig>> = async () => ({}),
) =>
  useClosable(() =>
    startOnStores(async (stores) => createApp({ ...stores.config, port: 0, ...(await settings(stores)) })),
  );
