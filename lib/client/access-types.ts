// Stand-ins for the access-control schemas the API is getting (lib/access); replaced by them once they land.

export interface SigningKey {
  id: string;
  name: string;
  publicKey: string;
  createdAt: number;
  lastSeen?: number;
  disabled: boolean;
}

export interface SigningKeyCreated extends Omit<SigningKey, "lastSeen" | "disabled"> {
  privateKey: string;
}

export interface SigningKeyPatch {
  name?: string;
  disabled?: boolean;
}

export interface PlaybackPolicy {
  type: "public" | "jwt" | "webhook";
  webhookId?: string;
  webhookContext?: Record<string, unknown>;
  refreshInterval?: number;
  allowedOrigins?: string[];
}

export interface AssetPatch {
  name?: string;
  playbackPolicy?: PlaybackPolicy;
}
