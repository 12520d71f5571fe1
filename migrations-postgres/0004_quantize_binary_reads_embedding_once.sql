-- engram_quantize_binary, as in 0001_triggers.sql, but reading a copy of the embedding made once:
-- a vector of more than about 2 kB is stored out of line (TOAST), and every get_byte on the
-- argument itself fetched it whole again (four to eight times a dimension, some 10,000 fetches for
-- one 1536-dimension embedding written, about 30 times slower). The same bits as before.
CREATE OR REPLACE FUNCTION engram_quantize_binary(embedding bytea, dimensions integer) RETURNS bytea LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  -- A concatenation answers a plain value in memory: the stored one is read here, once.
  vector bytea := embedding || ''::bytea;
  result bytea := decode(repeat('00', dimensions / 8), 'hex');
  byte integer := 0;
  high integer;
  exponent integer;
  i integer;
BEGIN
  FOR i IN 0 .. dimensions - 1 LOOP
    high := get_byte(vector, i * 4 + 3);
    exponent := ((high & 127) << 1) | (get_byte(vector, i * 4 + 2) >> 7);
    -- Positive: sign clear, not zero, not NaN.
    IF high < 128
      AND (high <> 0 OR get_byte(vector, i * 4 + 2) <> 0 OR get_byte(vector, i * 4 + 1) <> 0 OR get_byte(vector, i * 4) <> 0)
      AND NOT (exponent = 255 AND ((get_byte(vector, i * 4 + 2) & 127) <> 0 OR get_byte(vector, i * 4 + 1) <> 0 OR get_byte(vector, i * 4) <> 0))
    THEN
      byte := byte | (1 << (i % 8));
    END IF;
    IF i % 8 = 7 THEN
      result := set_byte(result, i / 8, byte);
      byte := 0;
    END IF;
  END LOOP;
  RETURN result;
END
$$;
