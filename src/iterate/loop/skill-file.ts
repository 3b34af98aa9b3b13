/**
 * SKILL.md in the worktree, read once before the baseline and written back by every applied edit. It is
 * opened without following a link (ELOOP instead): the run skips linked skills before the loop, and this
 * keeps a link made afterwards from being read or written through. No O_CREAT: the file exists.
 */
import { constants } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';

const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;
const WRITE_NO_FOLLOW = constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW;

export function readSkillFile(file: string): Promise<string> {
  return readFile(file, { encoding: 'utf8', flag: READ_NO_FOLLOW });
}

export function writeSkillFile(file: string, text: string): Promise<void> {
  return writeFile(file, text, { encoding: 'utf8', flag: WRITE_NO_FOLLOW });
}
