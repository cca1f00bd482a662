/**
 * The thread filesystem as just-bash's filesystem (ATT-1), for the `bash` tool: `/` is the thread
 * root, reads come from the thread and writes land in it at once, so `read`, `write` and HTTP
 * downloads see what a command did. Directories exist while they hold files; device files are virtual.
 *
 * Every operation goes through the call's ThreadState, whose gate checks it against the permission
 * rules in canonical form (PERM-1, PERM-4): whatever command reads, copies, deletes or writes a file,
 * a refused path fails with EACCES, and the refusal is kept so the tool can tell the model why.
 */
import type { BufferEncoding, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from 'just-bash';
import { canonicalText } from '../../engine/files/index.js';
import { AccessDenied } from '../../engine/permissions/index.js';
import type { ThreadState } from '../../spec/index.js';

type EncodingOption = Parameters<IFileSystem['readFile']>[1] | Parameters<IFileSystem['writeFile']>[2];
type Dirent = Awaited<ReturnType<NonNullable<IFileSystem['readdirWithFileTypes']>>>[number];

const FILE_MODE = 0o644;
const DIR_MODE = 0o755;
/** Device files the shell may name; they are not files of the thread and never reach it. */
const DEVICES = new Set(['null', 'zero', 'stdin', 'stdout', 'stderr']);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * `/a/./b/../c` -> `/a/c`; `..` stops at the root, as in a real filesystem. In Unicode NFC, the form
 * of thread paths, so what the shell remembers for the call (directories made, contents, modes) is
 * keyed as the thread keys it: `cd cafe\u0301` and `cat /café/x` are one folder. The thread refuses
 * names with invisible characters when the operation reaches it.
 */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of canonicalText(path).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

function join(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

function encodingOf(options: EncodingOption): BufferEncoding | undefined {
  if (options === null || options === undefined) return undefined;
  return typeof options === 'string' ? options : (options.encoding ?? undefined);
}

function toBytes(content: FileContent, encoding: BufferEncoding | undefined): Uint8Array {
  if (content instanceof Uint8Array) return content;
  if (encoding === 'binary' || encoding === 'latin1') {
    const bytes = new Uint8Array(content.length);
    for (let index = 0; index < content.length; index++) bytes[index] = content.charCodeAt(index) & 0xff;
    return bytes;
  }
  if (encoding === 'base64') return toBytes(atob(content), 'latin1');
  if (encoding === 'hex') {
    const bytes = new Uint8Array(content.length >> 1);
    for (let index = 0; index < bytes.length; index++)
      bytes[index] = Number.parseInt(content.slice(index * 2, index * 2 + 2), 16);
    return bytes;
  }
  return encoder.encode(content);
}

function fromBytes(bytes: Uint8Array, encoding: BufferEncoding | undefined): string {
  if (encoding === 'binary' || encoding === 'latin1' || encoding === 'base64') {
    let text = '';
    for (let index = 0; index < bytes.length; index += 0x8000) {
      text += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
    }
    return encoding === 'base64' ? btoa(text) : text;
  }
  if (encoding === 'hex') return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return decoder.decode(bytes);
}

function fsError(code: string, message: string, operation: string, path: string): Error {
  return new Error(`${code}: ${message}, ${operation} '${path}'`);
}

/**
 * just-bash's filesystem interface over a ThreadState. The thread stores files only; a directory
 * exists while a file lies under it. `mkdir` makes a directory for the rest of the call (an empty
 * one is not kept), `chmod` lasts for the call (so `chmod +x s.sh && ./s.sh` works), and links are
 * refused. `/dev/null` and friends are virtual. File contents are cached for the call, so appends
 * do not re-read, and every write goes to the thread at once.
 */
export class ThreadShellFs implements IFileSystem {
  private readonly directories = new Set<string>();
  private readonly modes = new Map<string, number>();
  private readonly contents = new Map<string, Uint8Array>();
  /** Why operations were refused by the permission rules, in order, without repeats. */
  readonly refusals = new Set<string>();

  constructor(private readonly state: ThreadState) {}

  /** Runs one operation on the thread; a refusal by the rules becomes EACCES, as on a real system. */
  private async thread<T>(operation: string, path: string, act: () => Promise<T>): Promise<T> {
    try {
      return await act();
    } catch (error) {
      if (!(error instanceof AccessDenied)) throw error;
      this.refusals.add(error.message);
      throw fsError('EACCES', 'permission denied', operation, path);
    }
  }

  resolvePath(base: string, path: string): string {
    return normalize(path.startsWith('/') ? path : `${base}/${path}`);
  }

  /**
   * None: just-bash's `ls` matches an operand holding `*`, `?` or `[` against every path listed here
   * with a glob library whose patterns backtrack (`ls *a*a*a*a*a*a*a*a*c` beside a long name held the
   * thread for minutes). The shell has already expanded what matches (on its linear-time engine), so
   * such an operand names no file, and `ls` says so, as a real `ls` does with a pattern it is handed.
   */
  getAllPaths(): string[] {
    return [];
  }

  private device(path: string): string | null {
    return path.startsWith('/dev/') && DEVICES.has(path.slice(5)) ? path.slice(5) : null;
  }

  private async bytesOf(path: string): Promise<Uint8Array | null> {
    const cached = this.contents.get(path);
    if (cached) return cached;
    const buffer = await this.thread('open', path, () => this.state.readFile(path));
    const bytes = buffer && new Uint8Array(buffer);
    if (bytes) this.contents.set(path, bytes);
    return bytes;
  }

  private async isDirectory(path: string): Promise<boolean> {
    if (path === '/' || path === '/dev' || this.directories.has(path)) return true;
    return (await this.thread('scandir', path, () => this.state.readdirFile(path))).entries.length > 0;
  }

  private async store(path: string, bytes: Uint8Array, operation: string): Promise<void> {
    if (this.device(path) !== null) return; // writes to /dev/null and friends vanish
    if (path === '/' || (await this.isDirectory(path))) {
      throw fsError('EISDIR', 'illegal operation on a directory', operation, path);
    }
    await this.thread(operation, path, () => this.state.writeFile(path, bytes));
    this.contents.set(path, bytes);
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    const normalized = normalize(path);
    if (this.device(normalized) !== null) return new Uint8Array(0);
    const bytes = await this.bytesOf(normalized);
    if (bytes) return bytes;
    if (await this.isDirectory(normalized)) throw fsError('EISDIR', 'illegal operation on a directory', 'read', path);
    throw fsError('ENOENT', 'no such file or directory', 'open', path);
  }

  async readFile(path: string, options?: Parameters<IFileSystem['readFile']>[1]): Promise<string> {
    return fromBytes(await this.readFileBuffer(path), encodingOf(options));
  }

  async writeFile(path: string, content: FileContent, options?: Parameters<IFileSystem['writeFile']>[2]) {
    await this.store(normalize(path), toBytes(content, encodingOf(options)), 'write');
  }

  async appendFile(path: string, content: FileContent, options?: Parameters<IFileSystem['appendFile']>[2]) {
    const normalized = normalize(path);
    if (this.device(normalized) !== null) return;
    const added = toBytes(content, encodingOf(options));
    const existing = await this.bytesOf(normalized);
    if (existing && added.byteLength === 0) return;
    const bytes = new Uint8Array((existing?.byteLength ?? 0) + added.byteLength);
    if (existing) bytes.set(existing);
    bytes.set(added, existing?.byteLength ?? 0);
    await this.store(normalized, bytes, 'write');
  }

  async exists(path: string): Promise<boolean> {
    try {
      await this.stat(path);
      return true;
    } catch {
      return false;
    }
  }

  async stat(path: string): Promise<FsStat> {
    const normalized = normalize(path);
    if (this.device(normalized) !== null) {
      return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o666, size: 0, mtime: new Date(0) };
    }
    const file = normalized === '/' ? null : await this.thread('stat', path, () => this.state.statFile(normalized));
    if (file && !file.isDirectory) {
      const mode = this.modes.get(normalized) ?? FILE_MODE;
      return {
        isFile: true,
        isDirectory: false,
        isSymbolicLink: false,
        mode,
        size: file.size,
        mtime: new Date(file.uploadedAt ?? 0),
      };
    }
    if (await this.isDirectory(normalized)) {
      const mode = this.modes.get(normalized) ?? DIR_MODE;
      return { isFile: false, isDirectory: true, isSymbolicLink: false, mode, size: 0, mtime: new Date(0) };
    }
    throw fsError('ENOENT', 'no such file or directory', 'stat', path);
  }

  lstat(path: string): Promise<FsStat> {
    return this.stat(path);
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    const normalized = normalize(path);
    if (await this.exists(normalized)) {
      const stat = await this.stat(normalized);
      if (stat.isFile) throw fsError('EEXIST', 'file already exists', 'mkdir', path);
      if (!options?.recursive) throw fsError('EEXIST', 'directory already exists', 'mkdir', path);
      return;
    }
    const parent = parentOf(normalized);
    if (!(await this.isDirectory(parent))) {
      if (!options?.recursive) throw fsError('ENOENT', 'no such file or directory', 'mkdir', path);
      await this.mkdir(parent, { recursive: true });
    }
    this.directories.add(normalized);
  }

  async readdirWithFileTypes(path: string): Promise<Dirent[]> {
    const normalized = normalize(path);
    if (normalized === '/dev') {
      return [...DEVICES].sort().map((name) => ({ name, isFile: true, isDirectory: false, isSymbolicLink: false }));
    }
    const byName = new Map<string, Dirent>();
    const { entries } = await this.thread('scandir', path, () => this.state.readdirFile(normalized));
    for (const entry of entries) {
      const { isDirectory } = entry;
      byName.set(entry.name, { name: entry.name, isFile: !isDirectory, isDirectory, isSymbolicLink: false });
    }
    for (const dir of this.directories) {
      if (dir !== normalized && parentOf(dir) === normalized) {
        const name = dir.slice(dir.lastIndexOf('/') + 1);
        if (!byName.has(name)) byName.set(name, { name, isFile: false, isDirectory: true, isSymbolicLink: false });
      }
    }
    if (byName.size === 0 && !(await this.isDirectory(normalized))) {
      const stat =
        normalized === '/' ? null : await this.thread('scandir', path, () => this.state.statFile(normalized));
      if (stat && !stat.isDirectory) {
        throw fsError('ENOTDIR', 'not a directory', 'scandir', path);
      }
      throw fsError('ENOENT', 'no such file or directory', 'scandir', path);
    }
    return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async readdir(path: string): Promise<string[]> {
    return (await this.readdirWithFileTypes(path)).map((entry) => entry.name);
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    const normalized = normalize(path);
    // Like GNU rm's --preserve-root: the root itself is never removed (`rm -rf /*` still works).
    if (this.device(normalized) !== null || normalized === '/dev' || normalized === '/') {
      throw fsError('EPERM', 'operation not permitted', 'rm', path);
    }
    if (await this.thread('rm', path, () => this.state.unlinkFile(normalized))) {
      this.forget(normalized);
      return;
    }
    if (await this.isDirectory(normalized)) {
      const children = await this.readdir(normalized);
      if (children.length > 0 && !options?.recursive) {
        throw fsError('ENOTEMPTY', 'directory not empty', 'rm', path);
      }
      for (const child of children) await this.rm(join(normalized, child), options);
      this.forget(normalized);
      return;
    }
    if (!options?.force) throw fsError('ENOENT', 'no such file or directory', 'rm', path);
  }

  private forget(path: string): void {
    this.directories.delete(path);
    this.contents.delete(path);
    this.modes.delete(path);
  }

  async cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    const from = normalize(src);
    const to = normalize(dest);
    const stat = await this.stat(from).catch(() => null);
    if (!stat) throw fsError('ENOENT', 'no such file or directory', 'cp', src);
    if (stat.isFile) {
      await this.store(to, await this.readFileBuffer(from), 'cp');
      return;
    }
    if (!options?.recursive) throw fsError('EISDIR', 'is a directory', 'cp', src);
    if (to === from || to.startsWith(`${from}/`)) {
      throw fsError('EINVAL', `cannot copy '${src}' into itself`, 'cp', dest);
    }
    await this.mkdir(to, { recursive: true });
    for (const child of await this.readdir(from)) await this.cp(join(from, child), join(to, child), options);
  }

  async mv(src: string, dest: string): Promise<void> {
    const from = normalize(src);
    const to = normalize(dest);
    if (from === to) return;
    if (to.startsWith(`${from}/`)) throw fsError('EINVAL', `cannot move '${src}' into itself`, 'mv', dest);
    await this.cp(from, to, { recursive: true });
    await this.rm(from, { recursive: true });
  }

  async chmod(path: string, mode: number): Promise<void> {
    const normalized = normalize(path);
    if (!(await this.exists(normalized))) throw fsError('ENOENT', 'no such file or directory', 'chmod', path);
    this.modes.set(normalized, mode);
  }

  async symlink(_target: string, linkPath: string): Promise<void> {
    throw fsError('EPERM', 'the thread filesystem has no links', 'symlink', linkPath);
  }

  async link(_existingPath: string, newPath: string): Promise<void> {
    throw fsError('EPERM', 'the thread filesystem has no links', 'link', newPath);
  }

  async readlink(path: string): Promise<string> {
    if (!(await this.exists(path))) throw fsError('ENOENT', 'no such file or directory', 'readlink', path);
    throw fsError('EINVAL', 'invalid argument', 'readlink', path);
  }

  async realpath(path: string): Promise<string> {
    const normalized = normalize(path);
    if (!(await this.exists(normalized))) throw fsError('ENOENT', 'no such file or directory', 'realpath', path);
    return normalized;
  }

  async utimes(path: string): Promise<void> {
    // The thread keeps each file's upload time; there is no other time to set.
    if (!(await this.exists(path))) throw fsError('ENOENT', 'no such file or directory', 'utimes', path);
  }
}
