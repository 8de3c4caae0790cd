# Installs diazo on Windows (PowerShell 5.1 or later): detects the architecture, downloads the
# matching binary and the release's SHA256SUMS, refuses to install unless the binary's checksum is
# listed and matches, and puts it in %LOCALAPPDATA%\Programs\diazo (or -Dir). Never needs admin.
# Nothing is installed when anything fails.
#
#   irm https://github.com/diazo-cli/diazo/releases/latest/download/install.ps1 | iex
#   .\install.ps1 [-Version 1.2.3] [-Dir C:\tools\diazo]
#
# DIAZO_INSTALL_BASE_URL overrides where releases are downloaded from (the same layout as
# install.sh: <base>/download/v<version>/<file>, the newest release's <base>/latest/download/<file>).
# When piped into iex, DIAZO_VERSION and DIAZO_INSTALL_DIR stand in for -Version and -Dir.
param(
  [string]$Version = $env:DIAZO_VERSION,
  [string]$Dir = $env:DIAZO_INSTALL_DIR
)
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue' # Invoke-WebRequest is many times slower with its progress bar

function Fail([string]$Message, [string]$Hint = '') {
  [Console]::Error.WriteLine("error: $Message")
  if ($Hint) { [Console]::Error.WriteLine("hint: $Hint") }
  # `exit` would close the user's own session when this script is piped into iex.
  if ($PSCommandPath) { exit 1 } else { throw "diazo was not installed" }
}

$base = $env:DIAZO_INSTALL_BASE_URL
if (-not $base) { $base = 'https://github.com/diazo-cli/diazo/releases' }
$base = $base.TrimEnd('/')
if (-not $Dir) { $Dir = Join-Path $env:LOCALAPPDATA 'Programs\diazo' }
if ($Version) {
  $Version = $Version.TrimStart('v')
  if ($Version -notmatch '^\d+\.\d+\.\d+') { Fail "not a version: $Version" 'use the form 1.2.3' }
}

# A 32-bit PowerShell on 64-bit Windows reports x86 in PROCESSOR_ARCHITECTURE and the real one here.
$arch = if ($env:PROCESSOR_ARCHITEW6432) { $env:PROCESSOR_ARCHITEW6432 } else { $env:PROCESSOR_ARCHITECTURE }
switch ($arch) {
  'AMD64' { $target = 'x86_64-pc-windows-msvc' }
  'ARM64' { $target = 'aarch64-pc-windows-msvc' }
  default { Fail "unsupported architecture: $arch" 'diazo is built for x86_64 (AMD64) and ARM64' }
}
$releaseUrl = if ($Version) { "$base/download/v$Version" } else { "$base/latest/download" }

# Windows PowerShell 5.1 may default to TLS 1.0, which GitHub refuses.
[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12

$tmp = Join-Path ([IO.Path]::GetTempPath()) ("diazo-install-" + [Guid]::NewGuid())
New-Item -ItemType Directory -Path $tmp | Out-Null
try {
  $sumsFile = Join-Path $tmp 'SHA256SUMS'
  try { Invoke-WebRequest -UseBasicParsing -Uri "$releaseUrl/SHA256SUMS" -OutFile $sumsFile }
  catch { Fail "could not download SHA256SUMS from ${releaseUrl}: refusing to install without a checksum" 'check the version and DIAZO_INSTALL_BASE_URL, or try again later' }

  # Lines are "<sha256>  <file>" (or " *<file>").
  $sums = @{}
  foreach ($line in Get-Content $sumsFile) {
    if ($line -match '^([0-9a-fA-F]{64}) [ *](\S+)$') { $sums[$Matches[2]] = $Matches[1].ToLower() }
  }
  if ($Version) {
    $file = "diazo-$Version-$target.exe"
  } else {
    # The newest release names its version only in its files: take it from the checksum list.
    $file = $sums.Keys | Where-Object { $_ -match ("^diazo-\d[^ ]*-" + [regex]::Escape($target) + '\.exe$') } | Select-Object -First 1
    if (-not $file) { Fail "the newest release has no binary for $target in its SHA256SUMS: refusing to install" 'pick a release that has one with -Version' }
  }
  $expected = $sums[$file]
  if (-not $expected) { Fail "SHA256SUMS has no checksum for ${file}: refusing to install" "the release may not have a binary for $target" }

  Write-Host "Downloading $file ..."
  $download = Join-Path $tmp $file
  try { Invoke-WebRequest -UseBasicParsing -Uri "$releaseUrl/$file" -OutFile $download }
  catch { Fail "could not download $releaseUrl/$file" }
  $actual = (Get-FileHash -Algorithm SHA256 -Path $download).Hash.ToLower()
  if ($actual -ne $expected) {
    Fail "checksum mismatch for $file (expected $expected, got $actual): refusing to install" 'the download is damaged or was tampered with; try again, and report it if it persists'
  }

  # Only now is anything written outside the temp dir: a staged copy, then a rename over diazo.exe.
  New-Item -ItemType Directory -Force -Path $Dir | Out-Null
  $dest = Join-Path $Dir 'diazo.exe'
  $staged = Join-Path $Dir ".diazo.install.$PID.exe"
  Copy-Item -Path $download -Destination $staged -Force
  Move-Item -Path $staged -Destination $dest -Force
  Write-Host "Installed $file as $dest"
  try { & $dest --version | Select-Object -First 1 | Write-Host } catch { Write-Warning "$dest does not run on this machine" }

  $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
  $onPath = @(($userPath, $env:Path) -join ';' -split ';' | Where-Object { $_ -and ($_.TrimEnd('\') -ieq $Dir.TrimEnd('\')) })
  if ($onPath.Count -eq 0) {
    Write-Host ""
    Write-Host "$Dir is not on your PATH. Add it for your user (then open a new terminal):"
    Write-Host "  [Environment]::SetEnvironmentVariable('Path', [Environment]::GetEnvironmentVariable('Path', 'User') + ';$Dir', 'User')"
  }
} finally {
  Remove-Item -Recurse -Force -Path $tmp -ErrorAction SilentlyContinue
}
