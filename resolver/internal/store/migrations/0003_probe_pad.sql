-- /readyz after a write failed on a full disk probes with a write as
-- large as a record may be (issue 29.5): a one-row write can still fit
-- where records no longer do. pad holds the probe's bytes, and is
-- emptied again by the next small probe.
ALTER TABLE probe ADD COLUMN pad {{bytes}};
