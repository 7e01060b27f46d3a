import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (scripts/install.sh installs it). */
const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing (scripts/install.sh installs Debian's chromium)`;
}

/**
 * Headless Chromium with a fresh profile (playwright passes it as --user-data-dir), talking to
 * nothing but the pages it is sent to.
 */
export async function launchChromium(
  viewport = { width: 1280, height: 860 },
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await mkdtemp(path.join(tmpdir(), 'fw-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--no-sandbox',
      // WebGL 2 on SwiftShader (no GPU here): the live preview draws with it (player/).
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      // The preview's sound plays without a click (the player's clock is its sound).
      '--autoplay-policy=no-user-gesture-required',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
