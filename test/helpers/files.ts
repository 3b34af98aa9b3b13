/** Small file-system questions the tests ask. */
import { stat } from 'node:fs/promises';

/** Whether anything (file, folder, link target) exists at `p`. */
export async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}
