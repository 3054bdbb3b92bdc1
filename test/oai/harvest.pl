#!/usr/bin/perl
# Harvests an OAI-PMH repository with Debian's HTTP::OAI (libhttp-oai-perl), following its
# resumption tokens as the harvester does by itself: ListRecords in MARC 21, optionally from a
# datestamp. Prints the first response's responseDate, then one line per record: identifier,
# datestamp, "deleted" or "live", the title (245 $a) and the copies' barcodes (852 $p).
# Exit status 1 with the error on an OAI or HTTP error.
use strict;
use warnings;
use HTTP::OAI;
use XML::LibXML;

binmode STDOUT, ":encoding(UTF-8)";

my ($base, $from) = @ARGV;
my $MARC = 'http://www.loc.gov/MARC21/slim';
my $h = HTTP::OAI::Harvester->new(baseURL => $base);
my $identify = $h->Identify;
die 'Identify: ' . $identify->message . "\n" if $identify->is_error;
$h->repository($identify);

sub subfields {
  my ($dom, $tag, $code) = @_;
  my $xpath = XML::LibXML::XPathContext->new($dom);
  $xpath->registerNs('marc', $MARC);
  return map { $_->textContent } $xpath->findnodes(".//marc:datafield[\@tag='$tag']/marc:subfield[\@code='$code']");
}

# Each record as it is parsed, page after page (the harvester follows the tokens by itself).
my @lines;
sub on_record {
  my ($record) = @_;
  my $deleted = $record->is_deleted;
  my ($title, $barcodes) = ('', '');
  if (!$deleted) {
    my $dom = $record->metadata->dom;
    ($title) = subfields($dom, '245', 'a');
    $barcodes = join(',', subfields($dom, '852', 'p'));
  }
  push @lines, join("\t", $record->identifier, $record->datestamp, $deleted ? 'deleted' : 'live', $title, $barcodes);
}

my @args = (metadataPrefix => 'marc21', onRecord => \&on_record);
push @args, (from => $from) if defined $from && $from ne '';
my $response = $h->ListRecords(@args);
print 'responseDate ', $response->responseDate, "\n";
# Nothing in the range is an answer, not a failure: no record lines follow.
exit 0 if grep { $_->code eq 'noRecordsMatch' } $response->errors;
die 'ListRecords: ' . $response->message . "\n" if $response->is_error;
print "$_\n" for @lines;
