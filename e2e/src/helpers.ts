// Helpers shared by the end-to-end tests.
import { gzipSync } from 'node:zlib';
import { eventually as pollUntil } from '@sprout/testing';
import type { Page } from '@sprout/testing/browser';
import type { Locator, Response } from 'playwright-core';

export interface ToastText {
  title: string;
  description: string;
  destructive: boolean;
}

/** The toast on screen (one at a time), once it shows `text`: its title, or its description. */
export async function toastWithTitle(page: Page, text: string): Promise<ToastText> {
  const toast = page.getByTestId('toast').filter({ hasText: text });
  await toast.waitFor({ state: 'visible' });
  const parts = toast.locator('div.grid > *');
  const texts = await parts.allInnerTexts();
  const className = (await toast.getAttribute('class')) ?? '';
  return {
    title: texts[0] ?? '',
    description: texts[1] ?? '',
    destructive: className.includes('bg-destructive'),
  };
}

/** Loads `path` and sums the gzipped size of every script it fetched, in bytes. */
export async function gzippedScriptBytes(page: Page, path: string): Promise<number> {
  const bodies: Promise<Buffer>[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.body());
  };
  page.on('response', onResponse);
  await page.goto(path, { waitUntil: 'networkidle' });
  page.off('response', onResponse);
  const all = await Promise.all(bodies);
  return all.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
}

/** The shared poll, with the longer wait these tests need: a whole stack answers, not one service. */
export const eventually = <T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> => pollUntil(probe, what, timeoutMs);

/** Expects the toast that shows `description` to carry `title` and to be destructive or not. */
export async function expectToast(
  page: Page,
  title: string,
  description: string,
  destructive = false,
): Promise<void> {
  expect(await toastWithTitle(page, description)).toEqual({ title, description, destructive });
}

/** Expects the destructive toast that shows `description` to carry `title`. */
export const expectErrorToast = (page: Page, title: string, description: string): Promise<void> =>
  expectToast(page, title, description, true);

/** Clicks `button`, waits for the answer from `path`, then for the result it shows (`resultTestId`). */
export async function clickForResult(
  page: Page,
  button: Locator,
  path: string,
  resultTestId: string,
): Promise<void> {
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === path);
  await button.click();
  await answered;
  await page.getByTestId(resultTestId).waitFor();
}

/** Waits for the element `testId` and expects its text to hold each of `parts`. */
export async function expectShownText(page: Page, testId: string, ...parts: string[]): Promise<void> {
  const element = page.getByTestId(testId);
  await element.waitFor();
  const text = await element.innerText();
  for (const part of parts) expect(text).toContain(part);
}
