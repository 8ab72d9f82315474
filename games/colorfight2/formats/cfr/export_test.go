package cfr

// FixturePath is fixturePath for the external test package.
var FixturePath = fixturePath

// ReadShared is readShared for the external test package.
var ReadShared = readShared

// EncodeFrames is encodeFrames for the external test package.
var EncodeFrames = encodeFrames

// DecodeAll is decodeAll for the external test package.
var DecodeAll = decodeAll
