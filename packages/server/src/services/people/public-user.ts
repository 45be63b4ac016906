import type { Role } from 'gatehouse-hitl-core';
import type { UserRecord } from 'gatehouse-hitl-store';

/** A person as the API shows them: never the password hash. */
export interface PublicUser {
  id: string;
  name: string;
  role: Role;
  disabled: boolean;
  createdAt: number;
}

export function publicUser(user: UserRecord): PublicUser {
  return {
    id: user.id,
    name: user.name,
    role: user.role,
    disabled: user.disabled,
    createdAt: user.createdAt,
  };
}
