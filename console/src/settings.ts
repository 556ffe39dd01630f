import type { ConsoleSettings } from '../../src/console/console-csp';

export type { ConsoleSettings };

/** What the server tells the page (CAPTCHA widget, whether password sign-in can work). */
export async function loadSettings(): Promise<ConsoleSettings> {
  try {
    const response = await fetch('/console/config.json', { credentials: 'omit' });
    if (response.ok) {
      return (await response.json()) as ConsoleSettings;
    }
  } catch {
    // fall through: the safest assumption
  }
  return { captcha: null, passwordSignIn: false };
}
