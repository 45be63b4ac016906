/** One person's signing key as this browser keeps it; the private key cannot be exported. */
export interface StoredSigningKey {
  userId: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The raw 32-byte public key, base64: what `POST /v1/me/keys` registers. */
  publicKeyBase64: string;
  /** SHA-256 of the raw public key, hex: the fingerprint the server shows. */
  fingerprint: string;
  createdAt: number;
}

const DB_NAME = 'gatehouse-signing';
const STORE = 'keys';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function openDatabase(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined') {
    return Promise.reject(new Error('this browser has no IndexedDB to keep a signing key in'));
  }
  const open = indexedDB.open(DB_NAME, 1);
  open.onupgradeneeded = () => {
    open.result.createObjectStore(STORE, { keyPath: 'userId' });
  };
  return request(open);
}

async function withStore<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) {
  const db = await openDatabase();
  try {
    return await request(work(db.transaction(STORE, mode).objectStore(STORE)));
  } finally {
    db.close();
  }
}

/** The key this browser keeps for `userId`, or null. */
export async function readStoredKey(userId: string): Promise<StoredSigningKey | null> {
  const found = await withStore<StoredSigningKey | undefined>('readonly', (store) => store.get(userId));
  return found ?? null;
}

/** Keeps `key` (CryptoKeys are stored as they are, so the private key never leaves the browser). */
export async function writeStoredKey(key: StoredSigningKey): Promise<void> {
  await withStore('readwrite', (store) => store.put(key));
}
