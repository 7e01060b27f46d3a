/**
 * A parent for supervised-child.test.ts: starts the child fixture (its bundle's path is the first
 * argument) as a supervised child, prints the child's pid once it is ready, and waits to be killed.
 */
import type { FixtureRequest } from './supervised-child.fixture.ts';
import { SupervisedChild } from './supervised-child.ts';

const child = new SupervisedChild<FixtureRequest, number, string>({ name: 'fixture child', module: process.argv[2]! });
await child.ready;
process.stdout.write(`${child.pid}\n`);
setInterval(() => {}, 60_000);
