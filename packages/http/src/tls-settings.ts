/**
 * The cipher suites offered: for TLS 1.2 only the ECDHE AEAD suites of Mozilla's "intermediate"
 * server profile (forward secrecy, no CBC, CCM or ARIA), for ECDSA and RSA certificates alike;
 * for TLS 1.3 its three standard suites. Clients choose among them (no server order).
 */
export const TLS_CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':')

/**
 * What every secure context of the server is made with besides the certificate and key: TLS 1.2
 * at least and `TLS_CIPHERS`. A reloaded certificate (`reloadTls`) must be given them again, as
 * `setSecureContext` resets whatever it is not given to Node's defaults.
 */
export const TLS_SETTINGS = { minVersion: 'TLSv1.2', ciphers: TLS_CIPHERS } as const
