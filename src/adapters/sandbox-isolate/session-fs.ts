import { type FileContent, type InitialFiles, InMemoryFs, type MkdirOptions, MountableFs } from "just-bash";

/**
 * A session's filesystem: an in-memory root with other filesystems mounted on it (the memory
 * stores). The sync methods let just-bash lay out `/bin`, `/dev` and `/proc` in the root as it
 * does for a plain in-memory filesystem.
 */
export class SessionFs extends MountableFs {
  private readonly root: InMemoryFs;

  constructor(root: InMemoryFs) {
    super({ base: root });
    this.root = root;
  }

  mkdirSync(path: string, options?: MkdirOptions): void {
    this.root.mkdirSync(path, options);
  }

  writeFileSync(path: string, content: FileContent): void {
    this.root.writeFileSync(path, content);
  }
}

/**
 * An in-memory filesystem that refuses every change after it is built (`EROFS`), for read-only
 * memory mounts. Paths in messages are shown under the mount point.
 */
export class ReadOnlyFs extends InMemoryFs {
  private readonly mountPoint: string;
  private sealed = false;

  constructor(files: InitialFiles, mountPoint: string) {
    super(files);
    this.mountPoint = mountPoint;
    this.sealed = true;
  }

  private refuse(operation: string, path: string): never {
    throw new Error(`EROFS: read-only file system, ${operation} '${this.mountPoint}${path === "/" ? "" : path}'`);
  }

  override writeFileSync(path: string, content: FileContent): void {
    if (this.sealed) this.refuse("write", path);
    super.writeFileSync(path, content);
  }
  override mkdirSync(path: string, options?: MkdirOptions): void {
    if (this.sealed) this.refuse("mkdir", path);
    super.mkdirSync(path, options);
  }
  override async writeFile(path: string): Promise<void> {
    this.refuse("write", path);
  }
  override async appendFile(path: string): Promise<void> {
    this.refuse("append", path);
  }
  override async mkdir(path: string): Promise<void> {
    this.refuse("mkdir", path);
  }
  override async rm(path: string): Promise<void> {
    this.refuse("rm", path);
  }
  override async cp(_src: string, dest: string): Promise<void> {
    this.refuse("cp", dest);
  }
  override async mv(src: string): Promise<void> {
    this.refuse("mv", src);
  }
  override async symlink(_target: string, linkPath: string): Promise<void> {
    this.refuse("symlink", linkPath);
  }
  override async link(_existing: string, newPath: string): Promise<void> {
    this.refuse("link", newPath);
  }
  override async chmod(path: string): Promise<void> {
    this.refuse("chmod", path);
  }
  override async utimes(path: string): Promise<void> {
    this.refuse("utimes", path);
  }
}
