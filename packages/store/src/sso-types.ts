/** A person's identity at an OpenID provider: the provider's `iss` and `sub` name one account here. */
export interface SsoIdentity {
  issuer: string;
  subject: string;
  userId: string;
  createdAt: number;
}

/** The accounts people signing in through an OpenID provider were given. */
export interface SsoIdentitiesRepo {
  /** Links a provider's subject to a person; false when that subject is linked already (to anyone). */
  insertSsoIdentity(identity: SsoIdentity): Promise<boolean>;
  getSsoIdentity(issuer: string, subject: string): Promise<SsoIdentity | null>;
  /** The person's identities at any provider, oldest first. */
  listSsoIdentitiesOf(userId: string): Promise<SsoIdentity[]>;
}
